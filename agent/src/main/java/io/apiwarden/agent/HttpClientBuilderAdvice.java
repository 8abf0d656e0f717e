package io.apiwarden.agent;

import net.bytebuddy.asm.Advice;

import java.net.http.HttpClient;

/**
 * Inlined at the end of {@code jdk.internal.net.http.HttpClientBuilderImpl.build()}, which
 * {@code HttpClient.newHttpClient()} also goes through. It only hands the new client to
 * {@link JdkHttpClientHook}. The code runs inside the {@code java.net.http} module, which
 * cannot link to the agent's classes, so it goes by reflection; a client is built rarely.
 * {@code suppress}: whatever happens here, the app gets the client the JDK built.
 */
final class HttpClientBuilderAdvice {

    private HttpClientBuilderAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(@Advice.Return(readOnly = false) HttpClient client) throws Exception {
        client = (HttpClient) Class.forName("io.apiwarden.agent.JdkHttpClientHook", true, ClassLoader.getSystemClassLoader())
                .getMethod("wrap", HttpClient.class)
                .invoke(null, client);
    }
}
