package io.apiwarden.agent;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.function.Supplier;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Puts the agent into OkHttp 3.x, 4.x and 5.x, which share these hooks: every
 * {@code OkHttpClient} is constructed from a builder (also {@code new OkHttpClient()}, and
 * {@code newBuilder().build()}), and every call is a {@code RealCall} (in
 * {@code okhttp3.internal.connection} from 4.0, in {@code okhttp3} before).
 */
final class OkHttpInstrumentation {
    private OkHttpInstrumentation() {
    }

    static void install(Instrumentation inst) {
        Supplier<AsmVisitorWrapper> client = () -> Advice.to(ClientAdvice.class)
                .on(isConstructor().and(takesArguments(1)).and(takesArgument(0, named("okhttp3.OkHttpClient$Builder"))));
        Supplier<AsmVisitorWrapper> call = () -> new AsmVisitorWrapper.Compound(
                Advice.to(EnqueueAdvice.class).on(named("enqueue").and(takesArguments(1))),
                Advice.to(CancelAdvice.class).on(named("cancel").and(takesArguments(0))));
        new AdviceTransformer("OkHttp", Map.of(
                "okhttp3/OkHttpClient", client,
                "okhttp3/internal/connection/RealCall", call,
                "okhttp3/RealCall", call)).install(inst);
    }

    /** Before the client copies the builder's interceptors: add the agent's. */
    static final class ClientAdvice {
        private ClientAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object builder) {
            OkHttpHook.beforeBuild(builder);
        }
    }

    /** Swaps the app's callback for one that retries without holding a dispatcher thread. */
    static final class EnqueueAdvice {
        private EnqueueAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object call,
                          @Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
            callback = OkHttpHook.onEnqueue(call, callback);
        }
    }

    /** Passes a cancel on to a pending retry. */
    static final class CancelAdvice {
        private CancelAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object call) {
            OkHttpHook.onCancel(call);
        }
    }
}
