package io.apiwarden.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server of the per-call and start-up measurements: the API's {@code GET /api/v1/user} (bearer
 * required) and a {@code GET /health} outside it, the same answers as the simulated API's, on one
 * Netty event-loop thread. The simulated API (JDK {@code HttpServer}) took ~200 µs a call with tails of
 * several milliseconds, which would drown a difference of a few microseconds; this one answers in a
 * fraction of that. Tokens never expire here, so nothing refreshes during a measurement, unless the
 * server is started with {@link SoakConditions}: then it has a token service at {@code /auth/token},
 * and its tokens expire and its global limit throttles.
 */
final class FastApiServer implements AutoCloseable {
    static final String API_PATH = "/api/v1";
    private static final byte[] USER_JSON =
            "{\"id\":1001,\"login\":\"demo-user\",\"name\":\"Demo User\"}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEALTH = "ok".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INVALID_TOKEN =
            "{\"message\":\"OAuth invalid token\"}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RATE_LIMITED =
            "{\"message\":\"API rate limit exceeded (global)\"}".getBytes(StandardCharsets.US_ASCII);

    private final String accessToken = newToken();
    private final String expectedAuthorization = "Bearer " + accessToken;
    private final AtomicLong apiRequests = new AtomicLong();
    private final AtomicLong unauthorized = new AtomicLong();
    /** Null for the measurements: one token that never expires, no limit. */
    private final SoakConditions conditions;

    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;

    private FastApiServer(SoakConditions conditions) throws InterruptedException {
        this.conditions = conditions;
        FastApiServer server = this;
        channel = new ServerBootstrap()
                .group(loop)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        new HttpServerCodec(),
                                        new HttpObjectAggregator(64 * 1024),
                                        new Handler(server));
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0))
                .sync()
                .channel();
    }

    /** Listens on loopback and an ephemeral port. */
    static FastApiServer start() throws InterruptedException {
        return new FastApiServer(null);
    }

    /** The same, with a token service whose tokens expire and a global limit that throttles. */
    static FastApiServer start(SoakConditions conditions) throws InterruptedException {
        return new FastApiServer(conditions);
    }

    /** A token the API accepts: for as long as the server runs, or with conditions, until it expires. */
    String accessToken() {
        return conditions == null ? accessToken : conditions.firstAccessToken();
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port() + API_PATH);
    }

    URI healthUrl() {
        return URI.create("http://127.0.0.1:" + port() + "/health");
    }

    /** The token service, {@code {authUrl}/token}: only with conditions; the setups name it all the same. */
    URI authUrl() {
        return URI.create("http://127.0.0.1:" + port() + "/auth");
    }

    long apiRequests() {
        return apiRequests.get();
    }

    long unauthorized() {
        return unauthorized.get();
    }

    private int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private FullHttpResponse answer(FullHttpRequest request) {
        String path = request.uri();
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        if (path.equals("/health")) {
            return response(HttpResponseStatus.OK, "text/plain", HEALTH);
        }
        if (conditions != null && path.equals("/auth/token")) {
            SoakConditions.TokenAnswer answer =
                    conditions.refresh(request.content().toString(StandardCharsets.UTF_8), System.nanoTime());
            return response(
                    HttpResponseStatus.valueOf(answer.status),
                    "application/json",
                    answer.json.getBytes(StandardCharsets.UTF_8));
        }
        if (path.equals(API_PATH + "/user")) {
            apiRequests.incrementAndGet();
            String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
            long now = System.nanoTime();
            if (conditions != null && conditions.throttles(now)) {
                return response(HttpResponseStatus.TOO_MANY_REQUESTS, "application/json", RATE_LIMITED);
            }
            if (conditions == null
                    ? expectedAuthorization.equals(authorization)
                    : conditions.accepts(authorization, now)) {
                return response(HttpResponseStatus.OK, "application/json", USER_JSON);
            }
            unauthorized.incrementAndGet();
            FullHttpResponse refused = response(HttpResponseStatus.UNAUTHORIZED, "application/json", INVALID_TOKEN);
            refused.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            return refused;
        }
        return response(HttpResponseStatus.NOT_FOUND, "text/plain", new byte[0]);
    }

    private static FullHttpResponse response(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, body.length);
        return response;
    }

    private static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return "at_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final FastApiServer server;

        Handler(FastApiServer server) {
            this.server = server;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            FullHttpResponse response = server.answer(request);
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
