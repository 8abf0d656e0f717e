package io.apiwarden.clients.apache5.library;

import io.apiwarden.clients.apache5.bridge.ApacheHttpBridge;
import io.apiwarden.core.Wardens;
import org.apache.hc.client5.http.impl.async.H2AsyncClientBuilder;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

/**
 * The agent's entry into one copy of Apache HttpClient 5: the calls woven into its builders, passed
 * on to {@link WardenApacheHttp}. Defined by the agent in a class loader whose parent is the
 * client's own, so that it links to the app's copy whatever loader that is.
 */
public final class ApacheHttpGlue implements ApacheHttpBridge {
    private final WardenApacheHttp apache;

    public ApacheHttpGlue(Wardens wardens) {
        this.apache = WardenApacheHttp.create(wardens);
    }

    @Override
    public void beforeBuild(Object builder) {
        // The classic builder first: an app of the classic client alone never loads the async builders.
        if (builder instanceof HttpClientBuilder) {
            apache.manage((HttpClientBuilder) builder);
        } else if (builder instanceof HttpAsyncClientBuilder) {
            apache.manage((HttpAsyncClientBuilder) builder);
        } else if (builder instanceof H2AsyncClientBuilder) {
            apache.manage((H2AsyncClientBuilder) builder);
        }
    }
}
