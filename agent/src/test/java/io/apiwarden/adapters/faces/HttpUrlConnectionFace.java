package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The JDK's {@code HttpURLConnection}, as plain code uses it: open, set, write the body, read the code and
 * the body (the error stream for an error); cancelled with {@code disconnect()} from another thread. A
 * streamed body is sent in chunked streaming mode, written in pieces.
 */
public final class HttpUrlConnectionFace implements ClientFace {
    /** How the app opens a URL: {@code url.openConnection()}, or library mode's entry. */
    public interface Opener {
        HttpURLConnection open(URL url) throws IOException;
    }

    private final Opener opener;
    private final boolean followRedirects;

    public HttpUrlConnectionFace(Opener opener, boolean followRedirects) {
        this.opener = opener;
        this.followRedirects = followRedirects;
    }

    /** The face as an app writes it: {@code url.openConnection()}. */
    public static HttpUrlConnectionFace plain(boolean followRedirects) {
        return new HttpUrlConnectionFace(url -> (HttpURLConnection) url.openConnection(), followRedirects);
    }

    @Override
    public boolean async() {
        return false;
    }

    @Override
    public Running start(Call call) {
        AtomicReference<HttpURLConnection> open = new AtomicReference<>();
        return Blocking.start(
                () -> {
                    HttpURLConnection c = opener.open(new URL(call.url()));
                    open.set(c);
                    return exchange(c, call);
                },
                thread -> {
                    HttpURLConnection c = open.get();
                    if (c != null) {
                        c.disconnect();
                    }
                });
    }

    private Reply exchange(HttpURLConnection c, Call call) throws IOException {
        c.setInstanceFollowRedirects(followRedirects);
        c.setRequestMethod(call.method());
        c.setConnectTimeout(10_000);
        c.setReadTimeout(10_000);
        if (call.kind() != Body.NONE) {
            byte[] body = call.body().getBytes(StandardCharsets.UTF_8);
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            if (call.kind() == Body.STREAMED) {
                c.setChunkedStreamingMode(0);
            }
            try (OutputStream out = c.getOutputStream()) {
                // In pieces, as a stream is copied.
                for (int i = 0; i < body.length; i += 4096) {
                    out.write(body, i, Math.min(4096, body.length - i));
                }
            }
        }
        int status = c.getResponseCode();
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            return new Reply(status, in == null ? "" : text(in));
        }
    }

    private static String text(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in.transferTo(b);
        return b.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        // Connections are the JDK's, kept alive in its own cache.
    }
}
