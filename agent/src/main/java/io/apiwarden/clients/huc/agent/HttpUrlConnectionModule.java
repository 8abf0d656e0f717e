package io.apiwarden.clients.huc.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

/**
 * The JDK's {@code HttpURLConnection} ({@code HttpsURLConnection} too): every connection the app opens to a
 * URL of the API is a managed one (library mode: {@code WardenHttpUrlConnection.open}).
 */
public final class HttpUrlConnectionModule implements ClientModule {
    @Override
    public String name() {
        return "http-url-connection";
    }

    @Override
    public String displayName() {
        return "HttpURLConnection";
    }

    /** The JDK connection every request of an {@code HttpURLConnection} goes through: the watch leaves it alone while this module is on. */
    @Override
    public Set<String> managedClassesTheWatchKnows() {
        return Set.of("sun/net/www/protocol/http/HttpURLConnection");
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(HucInstrumentation.HTTP_HANDLER, HucInstrumentation.HTTPS_HANDLER);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return HucInstrumentation.weavings();
    }

    /** {@code sun.net.www.http.HttpClient.openServer} is on the stack of every connection an HttpURLConnection opens. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("sun.net.www.");
    }
}
