package io.apiwarden.clients.jdk.agent;

import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Classes shaped like the JDK's client builder, and hooks, for {@link JdkHttpClientWeavingTest}. Public
 * throughout: the woven copies are defined in a loader of their own, outside this runtime package.
 */
public final class WeavingFixtures {
    public static final HttpClient BUILT = HttpClient.newHttpClient();
    public static final HttpClient OTHER = HttpClient.newHttpClient();
    public static final HttpClient REPLACEMENT = HttpClient.newHttpClient();

    private WeavingFixtures() {}

    /** The JDK's own shape: {@code return HttpClientImpl.create(this);} */
    public static final class SimpleBuilder {
        public HttpClient build() {
            return BUILT;
        }
    }

    /** Two returns, a long and an object local: the frames of the inserted code must still hold. */
    public static final class BranchingBuilder {
        private int calls;

        public HttpClient build() {
            long started = System.nanoTime();
            String label = "call " + calls++;
            if (label.endsWith("0") && started != 0) {
                return BUILT;
            }
            return OTHER;
        }
    }

    /** A build() with a try of its own: not a shape the weaving knows how to frame, so left alone. */
    public static final class GuardedBuilder {
        public HttpClient build() {
            try {
                return BUILT;
            } catch (RuntimeException e) {
                return OTHER;
            }
        }
    }

    public static final class RecordingHook {
        public static final List<HttpClient> SEEN = new ArrayList<>();

        public static HttpClient wrap(HttpClient built) {
            SEEN.add(built);
            return REPLACEMENT;
        }
    }

    public static final class ThrowingHook {
        public static HttpClient wrap(HttpClient built) {
            throw new IllegalStateException("a failing hook");
        }
    }
}
