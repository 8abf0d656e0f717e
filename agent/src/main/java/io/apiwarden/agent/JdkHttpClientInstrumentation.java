package io.apiwarden.agent;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.function.Supplier;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/** Puts {@link HttpClientBuilderAdvice} into the JDK's client builder, through which every client is built. */
final class JdkHttpClientInstrumentation {
    static final String BUILDER_CLASS = "jdk/internal/net/http/HttpClientBuilderImpl";

    private JdkHttpClientInstrumentation() {
    }

    static void install(Instrumentation inst) {
        Supplier<AsmVisitorWrapper> advice = () -> Advice.to(HttpClientBuilderAdvice.class).on(named("build").and(takesArguments(0)));
        new AdviceTransformer("java.net.http.HttpClient", Map.of(BUILDER_CLASS, advice)).install(inst);
    }
}
