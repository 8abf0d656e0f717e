package io.apiwarden.clients.okhttp.library;

import io.apiwarden.clients.okhttp.bridge.OkHttpBridge;
import io.apiwarden.core.Wardens;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;

/**
 * The agent's entry into one copy of OkHttp: the calls woven into OkHttp's classes, passed on to
 * {@link WardenOkHttp}. Defined by the agent in a class loader whose parent is OkHttp's own, so
 * that it links to the app's OkHttp whatever loader that is.
 */
public final class OkHttpGlue implements OkHttpBridge {
    private final WardenOkHttp okHttp;

    public OkHttpGlue(Wardens wardens) {
        this.okHttp = WardenOkHttp.create(wardens);
    }

    @Override
    public void beforeBuild(Object builder) {
        okHttp.manage((OkHttpClient.Builder) builder);
    }

    @Override
    public boolean enqueue(Object call, Object callback) {
        return okHttp.take((Call) call, (Callback) callback);
    }

    @Override
    public void onCancel(Object call) {
        okHttp.cancelled((Call) call);
    }
}
