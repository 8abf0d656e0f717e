package io.apiwarden.agent;

import com.google.gson.Strictness;
import io.apiwarden.core.log.AgentLog;
import io.opentelemetry.context.Context;
import java.util.List;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * Loads and links, on a daemon thread once the agent's start is over, the agent's classes that the first managed call
 * needs whatever the client: the engine, the token manager and its first read of the token, the JSON parser, the
 * weaving kit and the ASM it uses, and the last-resort watch. Without it their loading and verification, some 200
 * classes, land on the app's thread as it builds its first client and makes its first call (docs/benchmarks.md,
 * start-up). The app's {@code main} is then usually busy with its own start on one core while the other is idle.
 *
 * <p>Linked, not initialized: no static initializer runs before the app's code reaches its class. A client's own slice
 * is left to its first use, as which clients an app uses is not known here. The list comes from a class-loading log of
 * a managed call ({@code -Xlog:class+load}); a class missing from it is only loaded later, on the app's thread, as
 * before, and a name that no longer exists fails {@code FirstCallClassesTest}.
 */
final class FirstCallClasses {
    /** The agent's own, relative to {@code io.apiwarden.}. */
    static final List<String> AGENT = List.of(
            "agent.AgentRuntime$TokenClients",
            "agent.HookTransformer$MethodRewrite",
            "agent.ReturnThroughHook",
            "agent.ReturnThroughHook$1",
            "agent.ReturnThroughHook$1$1",
            "agent.Weaver",
            "agent.Weaver$1",
            "core.RefreshObservers",
            "core.SenderConstraints",
            "core.TokenClientOnce",
            "core.backoff.BackoffPolicy",
            "core.call.CallState",
            "core.call.Deadline",
            "core.call.Decision",
            "core.call.Decision$Action",
            "core.call.RefusalMemory",
            "core.call.RefusalMemory$1",
            "core.call.ResendPolicy",
            "core.classify.ResponseClassifier",
            "core.classify.Verdict",
            "core.engine.Attempt",
            "core.engine.Attempt$Async",
            "core.engine.Attempt$Blocking",
            "core.engine.AsyncRun",
            "core.engine.AttemptHeaders",
            "core.engine.BlockingRun",
            "core.engine.BlockingWait",
            "core.engine.BlockingWait$Cancel",
            "core.engine.BodyPeek$TooSlow",
            "core.engine.CallDriver",
            "core.engine.CallTarget",
            "core.engine.CancelThrough",
            "core.engine.EntryGuard",
            "core.engine.Exchange",
            "core.engine.Exchange$Async",
            "core.engine.Exchange$Blocking",
            "core.engine.HandOverFuture",
            "core.engine.Judge",
            "core.engine.JudgedAttempt",
            "core.log.ApiLog",
            "core.scope.RequestPath",
            "core.telemetry.AttemptObserver",
            "core.telemetry.AttemptObserver$1",
            "core.telemetry.CallObserver",
            "core.telemetry.CallObserver$1",
            "core.telemetry.RefreshObserver",
            "core.telemetry.RefreshObserver$1",
            "core.telemetry.Scope",
            "core.telemetry.Scope$None",
            "core.telemetry.Telemetry",
            "core.telemetry.Telemetry$1",
            "core.telemetry.jfr.JfrEvents",
            "core.telemetry.jfr.JfrTelemetry",
            "core.throttle.FleetWindow",
            "core.throttle.FleetWindow$1",
            "core.throttle.RateLimitHeaders",
            "core.throttle.RetryBudget",
            "core.throttle.ThrottleGate",
            "core.throttle.ThrottleGate$Pass",
            "core.time.DelayScheduler",
            "core.time.SystemDelayScheduler",
            "agent.AgentRuntime$Unwrapped",
            "core.ClientAuthenticators",
            "core.time.DaemonThreads",
            "core.time.LazyThread",
            "core.token.AccessToken",
            "core.token.ClientAuthenticator$1",
            "core.token.HttpTokenEndpoint",
            "core.token.RefreshTokenFile",
            "core.token.RefreshTokenFile$Replacement",
            "core.token.StoreRefresh",
            "core.token.StoreRefresh$OnStoreThread",
            "core.token.StoreRefresh$Outcome",
            "core.token.StoreRefresh$Run",
            "core.token.SenderConstraint",
            "core.token.TokenEndpoint",
            "core.token.TokenManager",
            "core.token.TokenManager$Finish",
            "core.token.TokenManager$FreshOrHeld",
            "core.token.TokenRefreshException",
            "core.token.TokenRequestProof",
            "core.token.TokenRequestProof$1",
            "core.token.TokenSharing",
            "core.token.TokenSharing$InPlace",
            "core.token.store.AtomicFile",
            "core.token.store.FileTokenStore",
            "core.token.store.FileTokenStore$CompareAndSet",
            "core.token.store.SharedNonce",
            "core.token.store.SideFile",
            "core.token.store.StateFile",
            "core.token.store.StateFile$Content",
            "core.token.store.StoreUnavailableException",
            "core.token.store.TokenState",
            "core.token.store.TokenStore",
            "core.token.store.TokenStore$Lease",
            "telemetry.Pending",
            "telemetry.PendingCall",
            "telemetry.StartingTelemetry",
            "telemetry.StartingTelemetry$PendingRefresh");

    /** Of the last-resort watch, loaded only when it is on. */
    static final List<String> WATCH = List.of(
            "agent.UnmanagedCallWeaving",
            "agent.UnmanagedCallWeaving$1",
            "agent.UnmanagedClientHook$ModuleClasses",
            "agent.UnmanagedClientHook$NothingToWatch",
            "agent.UnmanagedClientHook$Watches",
            "agent.UnmanagedClientHook$WatchedClasses",
            "core.log.AgentLogLines",
            "unmanaged.CallerLibrary",
            "unmanaged.ConnectWatch",
            "unmanaged.ConnectWatch$1",
            "unmanaged.ConnectWatch$KnownClient",
            "unmanaged.ConnectWatch$Opener",
            "unmanaged.ConnectWatch$OwnClasses",
            "unmanaged.ConnectWatch$Verdict",
            "unmanaged.PublicGetter",
            "unmanaged.PublicGetter$1",
            "unmanaged.UnmanagedClient",
            "unmanaged.UnmanagedClient$1",
            "unmanaged.UnmanagedClient$2",
            "unmanaged.UnmanagedClient$3",
            "unmanaged.UnmanagedClient$4");

    /**
     * Of the telemetry's front, which a call made before the SDK is ready goes through (kept calls, their trace context
     * and the ids their requests carry), when tracing or metrics are on: the agent's own, relative to {@code
     * io.apiwarden.}. Loaded and linked only, like the rest. The front keeps away from OpenTelemetry's context storage
     * and its W3C propagator: their first use sets up {@code java.util.logging}, which must wait for the SDK's thread.
     */
    static final List<String> TELEMETRY = List.of(
            "telemetry.ExitDestination",
            "telemetry.TelemetryThreads",
            "core.telemetry.GuardedTelemetry",
            "core.telemetry.GuardedTelemetry$Call",
            "core.telemetry.GuardedTelemetry$Attempt",
            "telemetry.AppTraceContext",
            "telemetry.AppTraceContext$Api",
            "telemetry.StartingTelemetry$1",
            "telemetry.KeptCalls$Keeping",
            "telemetry.KeptCalls$Kept",
            "telemetry.PendingCall$Replayed",
            "telemetry.Pending$Step",
            "telemetry.PendingCall$Attempt",
            "core.telemetry.GuardedTelemetry$GuardedScope",
            "telemetry.AppTraceContext$NoScope",
            "telemetry.ExitDestination$OtelSettings",
            "telemetry.ExitDestination$Probe",
            "telemetry.SdkStart",
            "telemetry.StartingTelemetry$AtExit",
            "telemetry.StartingTelemetry$CallEnded",
            "telemetry.StartingTelemetry$ExitDestinations",
            "telemetry.PendingCall$AttemptBegun",
            "telemetry.PendingCall$AttemptDecided",
            "telemetry.PendingCall$AttemptResponse",
            "telemetry.PendingCall$CallEnd",
            "telemetry.PendingCall$RestoreCurrent");

    /** The OpenTelemetry API classes that front needs, relative to {@code io.opentelemetry.} (relocated in the jar). */
    static final List<String> OPENTELEMETRY = List.of(
            "sdk.common.Clock",
            "sdk.common.SystemClock",
            "api.trace.SpanContext",
            "api.internal.ImmutableSpanContext",
            "api.trace.TraceId",
            "api.trace.SpanId",
            "api.trace.TraceFlags",
            "api.trace.TraceFlagsBuilder",
            "api.trace.ImmutableTraceFlags",
            "api.internal.OtelEncodingUtils",
            "api.trace.TraceState",
            "api.trace.TraceStateBuilder",
            "api.trace.ArrayBasedTraceStateBuilder",
            "api.trace.ArrayBasedTraceState",
            "api.trace.AutoValue_ArrayBasedTraceState",
            "api.internal.AutoValue_ImmutableSpanContext",
            "sdk.trace.IdGenerator",
            "sdk.trace.RandomIdGenerator",
            "sdk.common.internal.RandomSupplier",
            "api.internal.TemporaryBuffers");

    /**
     * Of Gson's streaming reader and writer, relative to its package (relocated in the jar): every first call reads JSON,
     * the token state's file or the token service's answer, and a first call that refreshes writes the state's file.
     */
    static final List<String> JSON = List.of(
            "stream.JsonReader",
            "stream.JsonReader$1",
            "stream.JsonScope",
            "stream.JsonToken",
            "stream.JsonWriter",
            "stream.MalformedJsonException",
            "FormattingStyle",
            "Strictness",
            "internal.JsonReaderInternalAccess");

    /** Of the ASM inside Byte Buddy, relative to its package (relocated into the agent's in the jar). */
    static final List<String> ASM = List.of(
            "AnnotationVisitor",
            "AnnotationWriter",
            "Attribute",
            "ByteVector",
            "ClassReader",
            "ClassTooLargeException",
            "ClassVisitor",
            "ClassWriter",
            "Context",
            "CurrentFrame",
            "FieldVisitor",
            "FieldWriter",
            "Frame",
            "Handle",
            "Handler",
            "Label",
            "MethodTooLargeException",
            "MethodVisitor",
            "MethodWriter",
            "ModuleVisitor",
            "ModuleWriter",
            "Opcodes",
            "RecordComponentVisitor",
            "RecordComponentWriter",
            "Symbol",
            "SymbolTable",
            "SymbolTable$Entry",
            "Type");

    private static final String AGENT_PACKAGE = "io.apiwarden.";

    private FirstCallClasses() {}

    /** Starts the daemon thread that loads them. */
    static void loadInBackground(boolean watching, boolean telemetry) {
        inBackground("apiwarden-warm-up", new Runnable() {
            @Override
            public void run() {
                loadAndLink(FirstCallClasses.class.getClassLoader(), names(watching, telemetry));
            }
        });
    }

    /**
     * Starts a daemon thread that has {@code module} load its first call's classes ahead ({@link
     * ClientModule#warmUp}), once the first class it weaves was defined by {@code libraryLoader}.
     */
    static void warmUpInBackground(ClientModule module, ClassLoader libraryLoader) {
        inBackground("apiwarden-warm-up-" + module.name(), new Runnable() {
            @Override
            public void run() {
                try {
                    module.warmUp(libraryLoader);
                } catch (RuntimeException | LinkageError e) {
                    // Nothing lost: the classes load when first used, as they would have without this.
                    AgentLog.once(AgentLog.Level.DEBUG, "warm-up-" + module.name(), "could not load ahead", e);
                }
            }
        });
    }

    private static void inBackground(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The classes' names, as {@link Class#forName} takes them. */
    static List<String> names(boolean watching, boolean telemetry) {
        List<String> names = new java.util.ArrayList<>();
        // ASM first: the first class woven needs it, and in most apps that comes before the first call.
        // From a class, not a string: the jar relocates ASM's package, and a class reference follows it for sure.
        String asmPackage = ClassReader.class.getPackageName() + ".";
        for (String name : ASM) {
            names.add(asmPackage + name);
        }
        for (String name : AGENT) {
            names.add(AGENT_PACKAGE + name);
        }
        String jsonPackage = Strictness.class.getPackageName() + ".";
        for (String name : JSON) {
            names.add(jsonPackage + name);
        }
        if (watching) {
            for (String name : WATCH) {
                names.add(AGENT_PACKAGE + name);
            }
        }
        if (telemetry) {
            for (String name : TELEMETRY) {
                names.add(AGENT_PACKAGE + name);
            }
            String otel =
                    Context.class.getName().substring(0, Context.class.getName().length() - "context.Context".length());
            for (String name : OPENTELEMETRY) {
                names.add(otel + name);
            }
        }
        return names;
    }

    /**
     * Loads and links, without initializing, each of {@code names} in {@code loader}. A name that cannot be loaded is
     * passed over: the class then loads when first used, as it would have without this.
     */
    static void loadAndLink(ClassLoader loader, Iterable<String> names) {
        for (String name : names) {
            try {
                // Asking for the constructors has HotSpot link (verify) the class without initializing it.
                Object unused = Class.forName(name, false, loader).getDeclaredConstructors();
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                AgentLog.once(AgentLog.Level.DEBUG, "warm-up", "could not load ahead " + name, e);
            }
        }
    }
}
