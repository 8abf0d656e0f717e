package io.apiwarden.agent;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;

/**
 * Watches the HTTP clients the agent sees but does not manage, so that the first call to the API through
 * one of them is named in a warning ({@link UnmanagedClientHook}). One method per client is woven, the
 * one every request of that client goes through, and only when its class is defined: the agent loads
 * none of these libraries, and a library the app does not have costs one map look-up per class loaded.
 *
 * <p>Client names are strings here, not {@link io.apiwarden.unmanaged.UnmanagedClient}, so that
 * {@code premain} loads nothing of the watch itself (the warm-up, {@link FirstCallClasses}, loads it later, off the
 * app's thread).
 */
final class UnmanagedClientInstrumentation {
    private static final String HC4 =
            "(Lorg/apache/http/HttpHost;Lorg/apache/http/HttpRequest;Lorg/apache/http/protocol/HttpContext;)";
    private static final String HC5_CLASSIC =
            "(Lorg/apache/hc/core5/http/HttpHost;Lorg/apache/hc/core5/http/ClassicHttpRequest;";
    private static final String HC5_ASYNC =
            "(Lorg/apache/hc/core5/http/HttpHost;Lorg/apache/hc/core5/http/nio/AsyncRequestProducer;";

    private UnmanagedClientInstrumentation() {}

    /**
     * The methods watched: every request of the client passes one of them, with its URL at hand.
     *
     * @param managedClasses the classes the client modules switched on manage ({@link ClientModule#managedClassesTheWatchKnows}):
     *        those are not watched (Apache HttpClient 5's builders' clients, classic and async, and Apache
     *        HttpClient 4's builder's client, while their modules are on; the minimal clients have no exec chain to
     *        join and are watched always)
     */
    static List<Site> sites(Set<String> managedClasses) {
        List<Site> sites = new java.util.ArrayList<>(List.of(
                // Every request of an HttpURLConnection, HTTPS included, and every redirect it follows, is written
                // here.
                new Site(
                        "sun/net/www/protocol/http/HttpURLConnection",
                        "writeRequests",
                        "()V",
                        0,
                        -1,
                        "HTTP_URL_CONNECTION"),
                // CloseableHttpClient.execute(...) in all its forms ends in doExecute(target, request, context).
                new Site(
                        "org/apache/http/impl/client/InternalHttpClient",
                        "doExecute",
                        HC4,
                        1,
                        2,
                        "APACHE_HTTPCLIENT_4"),
                new Site(
                        "org/apache/http/impl/client/MinimalHttpClient", "doExecute", HC4, 1, 2, "APACHE_HTTPCLIENT_4"),
                new Site(
                        "org/apache/http/impl/client/AbstractHttpClient",
                        "doExecute",
                        HC4,
                        1,
                        2,
                        "APACHE_HTTPCLIENT_4"),
                // Jetty 9 to 11, then 12: a blocking send() ends in send(listener) too.
                new Site(
                        "org/eclipse/jetty/client/HttpRequest",
                        "send",
                        "(Lorg/eclipse/jetty/client/api/Response$CompleteListener;)V",
                        0,
                        -1,
                        "JETTY"),
                new Site(
                        "org/eclipse/jetty/client/transport/HttpRequest",
                        "send",
                        "(Lorg/eclipse/jetty/client/Response$CompleteListener;)V",
                        0,
                        -1,
                        "JETTY")));
        // An async client's request is inside a producer: the target host alone says whether it is the API's origin.
        sites.add(new Site(
                "org/apache/hc/client5/http/impl/classic/InternalHttpClient",
                "doExecute",
                HC5_CLASSIC,
                1,
                2,
                "APACHE_HTTPCLIENT_5"));
        sites.add(new Site(
                "org/apache/hc/client5/http/impl/async/InternalAbstractHttpAsyncClient",
                "doExecute",
                HC5_ASYNC,
                1,
                -1,
                "APACHE_HTTPCLIENT_5"));
        sites.add(new Site(
                "org/apache/hc/client5/http/impl/classic/MinimalHttpClient",
                "doExecute",
                HC5_CLASSIC,
                1,
                2,
                "APACHE_HTTPCLIENT_5"));
        sites.add(new Site(
                "org/apache/hc/client5/http/impl/async/AbstractMinimalHttpAsyncClientBase",
                "doExecute",
                HC5_ASYNC,
                1,
                -1,
                "APACHE_HTTPCLIENT_5"));
        // A loop, not removeIf and a lambda: this runs in premain, where a lambda costs a spun class.
        for (Iterator<Site> it = sites.iterator(); it.hasNext(); ) {
            if (managedClasses.contains(it.next().className)) {
                it.remove();
            }
        }
        sites.addAll(connectSites());
        return sites;
    }

    /**
     * The last resort ({@link io.apiwarden.unmanaged.ConnectWatch}): where every client's TCP connections start, on
     * JDK 11 to 25. Blocking sockets (HttpURLConnection, the Apache clients, OkHttp, a raw {@code new Socket}, SSL
     * sockets, which connect through their plain super class) all pass {@code Socket.connect(address, timeout)}; the
     * JDK 13+ {@code NioSocketImpl} and JDK 11's {@code PlainSocketImpl} lie under it, so the public method is the one
     * place on every version. NIO channels (the JDK's HttpClient, Netty's NIO transport under Vert.x, Micronaut and
     * Reactor Netty, Jetty, Ktor CIO, HttpClient 5's async client) pass {@code SocketChannelImpl.connect(address)}.
     * Netty's native transports (epoll, kqueue, io_uring) never reach the JDK: their {@code unix.Socket.connect}.
     * Not watched: {@code AsynchronousSocketChannel}, a blocking {@code connect} on a channel's socket adaptor.
     */
    static List<Site> connectSites() {
        // A constant, inlined by the compiler: premain loads nothing of the watch.
        String connect = io.apiwarden.unmanaged.ConnectWatch.SITE;
        return List.of(
                new Site("java/net/Socket", "connect", "(Ljava/net/SocketAddress;I)V", 0, 1, connect),
                new Site("sun/nio/ch/SocketChannelImpl", "connect", "(Ljava/net/SocketAddress;)Z", 0, 1, connect),
                new Site("io/netty/channel/unix/Socket", "connect", "(Ljava/net/SocketAddress;)Z", 0, 1, connect));
    }

    /** The watch's transformer, not yet registered. */
    static HookTransformer transformer(Set<String> managedClasses) {
        Map<String, HookTransformer.Weaving> targets = new HashMap<>();
        for (Site site : sites(managedClasses)) {
            targets.put(site.className, weaving(site, UnmanagedClientHook.class.getName()));
        }
        return new HookTransformer("a client the agent does not manage", targets, true);
    }

    /** The weaving of {@code site}, whose woven code asks the public static {@code hookClass.watch(String)}; tests name a hook of their own. */
    static HookTransformer.Weaving weaving(Site site, String hookClass) {
        return new HookTransformer.Weaving() {
            @Override
            public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
                return UnmanagedCallWeaving.visitor(original, next, site, hookClass);
            }
        };
    }

    /**
     * One watched method: its class, name and the start of its descriptor; the local slots of the two
     * arguments handed to the watch (-1 for none); and the name of the {@code UnmanagedClient}.
     */
    static final class Site {
        final String className;
        final String method;
        final String descriptorPrefix;
        final int firstSlot;
        final int secondSlot;
        final String client;

        Site(String className, String method, String descriptorPrefix, int firstSlot, int secondSlot, String client) {
            this.className = className;
            this.method = method;
            this.descriptorPrefix = descriptorPrefix;
            this.firstSlot = firstSlot;
            this.secondSlot = secondSlot;
            this.client = client;
        }

        boolean matches(String name, String descriptor) {
            return name.equals(method) && descriptor.startsWith(descriptorPrefix);
        }
    }
}
