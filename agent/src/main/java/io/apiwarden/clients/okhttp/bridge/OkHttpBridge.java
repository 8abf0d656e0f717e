package io.apiwarden.clients.okhttp.bridge;

/**
 * What the agent asks of its OkHttp glue. The glue is compiled against OkHttp and defined once
 * per class loader that OkHttp lives in; this interface, loaded once by the agent's loader, lets
 * the agent call every copy without reflection.
 */
public interface OkHttpBridge {
    /** Adds the agent's interceptor to an {@code OkHttpClient.Builder} about to build a client, once. */
    void beforeBuild(Object builder);

    /**
     * Whether the agent runs {@code call}, about to be enqueued with {@code callback}, itself (on the
     * engine's asynchronous face): then OkHttp's {@code enqueue} does nothing more.
     */
    boolean enqueue(Object call, Object callback);

    /** Tells the glue that the app cancelled {@code call}, so a wait of it ends. */
    void onCancel(Object call);
}
