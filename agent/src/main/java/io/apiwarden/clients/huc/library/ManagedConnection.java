package io.apiwarden.clients.huc.library;

import io.apiwarden.core.Warden;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.util.List;
import java.util.Map;

/**
 * The {@code HttpURLConnection} the app gets for an http URL of the API: it keeps what the app sets and
 * writes, and the call goes through the engine when the app first asks for the response
 * ({@link ManagedRequest}, shared with {@link ManagedHttpsConnection}).
 */
final class ManagedConnection extends HttpURLConnection {
    private final ManagedRequest request;

    ManagedConnection(URL url, Proxy proxy, HttpURLConnection spare, Warden warden) {
        super(url);
        this.request = new ManagedRequest(this, this::settings, url, proxy, spare, warden);
    }

    /** The app's settings, read as it connects; from then on the setters refuse, as the JDK's do. */
    private AppSettings settings() {
        AppSettings s = new AppSettings(
                this,
                super.getRequestProperties(),
                fixedContentLengthLong >= 0 ? fixedContentLengthLong : fixedContentLength,
                chunkLength,
                request.authenticator());
        connected = true;
        return s;
    }

    @Override
    public void connect() {
        request.connect();
    }

    @Override
    public void disconnect() {
        request.disconnect();
    }

    @Override
    public boolean usingProxy() {
        return request.usingProxy();
    }

    @Override
    public void setAuthenticator(Authenticator auth) {
        request.authenticator(auth);
    }

    @Override
    public String getRequestProperty(String key) {
        return request.requestProperty(key, super::getRequestProperty);
    }

    @Override
    public Map<String, List<String>> getRequestProperties() {
        return ManagedRequest.shown(super.getRequestProperties());
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        return request.outputStream();
    }

    @Override
    public InputStream getInputStream() throws IOException {
        return request.inputStream();
    }

    @Override
    public InputStream getErrorStream() {
        return request.errorStream();
    }

    @Override
    public int getResponseCode() throws IOException {
        return request.responseCode();
    }

    @Override
    public String getResponseMessage() throws IOException {
        return request.responseMessage();
    }

    @Override
    public String getHeaderField(String name) {
        return request.headerField(name);
    }

    @Override
    public String getHeaderField(int n) {
        return request.headerField(n);
    }

    @Override
    public String getHeaderFieldKey(int n) {
        return request.headerFieldKey(n);
    }

    @Override
    public Map<String, List<String>> getHeaderFields() {
        return request.headerFields();
    }
}
