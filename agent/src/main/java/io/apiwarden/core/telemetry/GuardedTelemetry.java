package io.apiwarden.core.telemetry;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.AgentLog;
import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Wraps a {@link Telemetry} so that nothing it throws ever reaches a call: a failing exporter,
 * registry or bridge costs a span or a meter, never the app's request. Logged once.
 */
public final class GuardedTelemetry implements Telemetry {
    private final Telemetry inner;

    private GuardedTelemetry(Telemetry inner) {
        this.inner = inner;
    }

    public static Telemetry of(Telemetry inner) {
        return inner == NOOP || inner instanceof GuardedTelemetry ? inner : new GuardedTelemetry(inner);
    }

    private static void failed(RuntimeException e) {
        AgentLog.once(AgentLog.Level.WARN, "telemetry", "telemetry failed; calls go on without this span or meter", e);
    }

    @Override
    public CallObserver call(String method, String url, String host, int port) {
        try {
            return new Call(inner.call(method, url, host, port));
        } catch (RuntimeException e) {
            failed(e);
            return CallObserver.NOOP;
        }
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl) {
        return refresh(tokenUrl, null);
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl, String grant) {
        try {
            RefreshObserver r = grant == null ? inner.refresh(tokenUrl) : inner.refresh(tokenUrl, grant);
            return new RefreshObserver() {
                @Override
                public void end(String result) {
                    try {
                        r.end(result);
                    } catch (RuntimeException e) {
                        failed(e);
                    }
                }

                @Override
                public void event(String name) {
                    try {
                        r.event(name);
                    } catch (RuntimeException e) {
                        failed(e);
                    }
                }
            };
        } catch (RuntimeException e) {
            failed(e);
            return RefreshObserver.NOOP;
        }
    }

    @Override
    public Telemetry forApi(String api) {
        try {
            return of(inner.forApi(api));
        } catch (RuntimeException e) {
            failed(e);
            return this;
        }
    }

    @Override
    public void fleetWindowHeard(java.time.Duration window) {
        try {
            inner.fleetWindowHeard(window);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /** {@code scope}, closed without throwing; {@link Scope#NONE} as it is (it never throws): no guard per call. */
    private static Scope guarded(Scope scope) {
        return scope == Scope.NONE ? Scope.NONE : new GuardedScope(scope);
    }

    /** Closes a scope, never throwing: a class, not a lambda, which would cost a class spun on the first call. */
    private static final class GuardedScope implements Scope {
        private final Scope inner;

        GuardedScope(Scope inner) {
            this.inner = inner;
        }

        @Override
        public void close() {
            try {
                inner.close();
            } catch (RuntimeException e) {
                failed(e);
            }
        }
    }

    private static final class Call implements CallObserver {
        private final CallObserver inner;

        Call(CallObserver inner) {
            this.inner = inner;
        }

        @Override
        public AttemptObserver attempt(boolean expectContinue) {
            try {
                return new Attempt(inner.attempt(expectContinue));
            } catch (RuntimeException e) {
                failed(e);
                return AttemptObserver.NOOP;
            }
        }

        @Override
        public void end(int status, Verdict verdict, Throwable failure) {
            try {
                inner.end(status, verdict, failure);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public void gateClosed(java.time.Duration window) {
            try {
                inner.gateClosed(window);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public void tokenScheme(String scheme) {
            try {
                inner.tokenScheme(scheme);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public void gateWaited(java.time.Duration waited, boolean first) {
            try {
                inner.gateWaited(waited, first);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public Scope current() {
            try {
                return guarded(inner.current());
            } catch (RuntimeException e) {
                failed(e);
                return Scope.NONE;
            }
        }
    }

    private static final class Attempt implements AttemptObserver {
        private final AttemptObserver inner;

        Attempt(AttemptObserver inner) {
            this.inner = inner;
        }

        @Override
        public void inject(BiConsumer<String, String> setHeader) {
            try {
                inner.inject(setHeader);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public void response(
                int status, String protocolVersion, Function<String, List<String>> headers, Verdict verdict) {
            try {
                inner.response(status, protocolVersion, headers, verdict);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public void decided(Decision decision, String retryAfter) {
            try {
                inner.decided(decision, retryAfter);
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        @Override
        public void failed(Throwable failure) {
            try {
                inner.failed(failure);
            } catch (RuntimeException e) {
                GuardedTelemetry.failed(e);
            }
        }

        @Override
        public Scope onTheWire() {
            try {
                return guarded(inner.onTheWire());
            } catch (RuntimeException e) {
                GuardedTelemetry.failed(e);
                return Scope.NONE;
            }
        }
    }
}
