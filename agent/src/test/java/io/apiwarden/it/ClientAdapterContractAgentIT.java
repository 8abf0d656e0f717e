package io.apiwarden.it;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.Management;
import io.apiwarden.adapters.faces.Apache4ClassicFace;
import io.apiwarden.adapters.faces.ApacheAsyncFace;
import io.apiwarden.adapters.faces.ApacheClassicFace;
import io.apiwarden.adapters.faces.FeignFace;
import io.apiwarden.adapters.faces.GoogleHttpFace;
import io.apiwarden.adapters.faces.HttpUrlConnectionFace;
import io.apiwarden.adapters.faces.JdkFaces;
import io.apiwarden.adapters.faces.JettyFaces;
import io.apiwarden.adapters.faces.KtorFace;
import io.apiwarden.adapters.faces.MicronautFace;
import io.apiwarden.adapters.faces.OkHttpFaces;
import io.apiwarden.adapters.faces.ReactorNettyFace;
import io.apiwarden.adapters.faces.RestTemplateFace;
import io.apiwarden.adapters.faces.VertxFace;
import io.apiwarden.core.Warden;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * {@link ClientAdapterContract} with the agent attached: the same cases, through the same faces, on plain
 * clients as an app builds them, which the agent this JVM was started with weaves. {@link ContractWithTheAgentIT}
 * runs this class in JVMs of its own, one per set of properties ({@link ContractJvm}, {@link ContractLauncher}),
 * with the API's server on a port chosen before the JVM starts, since the agent reads its URL at start.
 */
class ClientAdapterContractAgentIT {

    /** The cases with the agent: its waits on its own timer, its token service over HTTP. */
    abstract static class WithTheAgent extends ClientAdapterContract {
        @Override
        protected Management management() {
            return new AgentManagement();
        }

        @Override
        protected final ClientFace face(Warden none, boolean followRedirects) {
            return plainFace(followRedirects);
        }

        /** The face on a client built as the app builds it, following redirects or not. */
        abstract ClientFace plainFace(boolean followRedirects);
    }

    @Nested
    class JdkSend extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return JdkFaces.send(JdkFaces.builder(followRedirects).build());
        }
    }

    @Nested
    class JdkSendAsync extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return JdkFaces.sendAsync(JdkFaces.builder(followRedirects).build());
        }
    }

    @Nested
    class OkHttpExecute extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return OkHttpFaces.execute(OkHttpFaces.builder(followRedirects).build(), OkHttpFaces.CallMethods.own());
        }
    }

    @Nested
    class OkHttpEnqueue extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return OkHttpFaces.enqueue(OkHttpFaces.builder(followRedirects).build(), OkHttpFaces.CallMethods.own());
        }
    }

    @Nested
    class ApacheClassic extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return new ApacheClassicFace(
                    ApacheClassicFace.builder(followRedirects).build());
        }
    }

    @Nested
    class ApacheAsync extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return new ApacheAsyncFace(ApacheAsyncFace.builder(followRedirects).build());
        }
    }

    @Nested
    class Apache4Classic extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return new Apache4ClassicFace(
                    Apache4ClassicFace.configure(org.apache.http.impl.client.HttpClients.custom(), followRedirects)
                            .build());
        }
    }

    @Nested
    class JettySend extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return JettyFaces.send(jetty(followRedirects));
        }
    }

    @Nested
    class JettyListener extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return JettyFaces.listener(jetty(followRedirects));
        }
    }

    /** A Jetty client as the app builds it: {@code new HttpClient()}, started. */
    private static org.eclipse.jetty.client.HttpClient jetty(boolean followRedirects) {
        try {
            return JettyFaces.started(new org.eclipse.jetty.client.HttpClient(), followRedirects);
        } catch (Exception e) {
            throw new IllegalStateException("the Jetty client did not start", e);
        }
    }

    @Nested
    class Micronaut extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return new MicronautFace(MicronautFace.plainClient(followRedirects));
        }

        @Override
        protected String cannot(Capability capability) {
            return capability == Capability.RESEND_STREAMED_BODY ? MicronautFace.STREAMED_BODY_NOT_RESENT : null;
        }
    }

    @Nested
    class KtorCio extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return KtorFace.plain(followRedirects);
        }

        @Override
        protected String cannot(Capability capability) {
            return capability == Capability.RESEND_STREAMED_BODY ? KtorFace.STREAMED_BODY_NOT_RESENT : null;
        }
    }

    @Nested
    class ReactorNetty extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            ConnectionProvider pool = ConnectionProvider.builder("contract")
                    .maxConnections(64)
                    .pendingAcquireMaxCount(-1)
                    .build();
            return new ReactorNettyFace(
                    HttpClient.create(pool).followRedirect(followRedirects),
                    request -> request,
                    () -> pool.disposeLater().block(Duration.ofSeconds(10)));
        }

        @Override
        protected String cannot(Capability capability) {
            return capability == Capability.RESEND_STREAMED_BODY ? ReactorNettyFace.STREAMED_BODY_NOT_RESENT : null;
        }
    }

    @Nested
    class HttpUrlConnection extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return HttpUrlConnectionFace.plain(followRedirects);
        }
    }

    /** {@code new RestTemplate()}: Spring's {@code SimpleClientHttpRequestFactory} over {@code HttpURLConnection}. */
    @Nested
    class SpringRestTemplate extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return RestTemplateFace.plain(followRedirects);
        }
    }

    /** OpenFeign's default client, over {@code HttpURLConnection}. */
    @Nested
    class OpenFeignDefault extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return new FeignFace(null, followRedirects);
        }
    }

    /** google-http-client's {@code new NetHttpTransport()}, over {@code HttpURLConnection}. */
    @Nested
    class GoogleNetHttpTransport extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            return GoogleHttpFace.plain(followRedirects);
        }
    }

    @Nested
    class VertxHttp extends WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            Vertx vertx = Vertx.vertx();
            return new VertxFace(vertx, vertx.createHttpClient(), followRedirects);
        }
    }
}
