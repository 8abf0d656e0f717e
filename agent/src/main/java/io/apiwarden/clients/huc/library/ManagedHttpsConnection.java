package io.apiwarden.clients.huc.library;

import io.apiwarden.core.Warden;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.security.Principal;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Map;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The {@code HttpsURLConnection} the app gets for an https URL of the API: it keeps what the app sets and
 * writes, and the call goes through the engine when the app first asks for the response
 * ({@link ManagedRequest}, shared with {@link ManagedConnection}). Its TLS session is the final attempt's.
 */
final class ManagedHttpsConnection extends HttpsURLConnection {
    private final ManagedRequest request;

    ManagedHttpsConnection(URL url, Proxy proxy, HttpURLConnection spare, Warden warden) {
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

    private HttpsURLConnection session() {
        return (HttpsURLConnection) request.answeredOrThrow();
    }

    @Override
    public String getCipherSuite() {
        return session().getCipherSuite();
    }

    @Override
    public Certificate[] getLocalCertificates() {
        return session().getLocalCertificates();
    }

    @Override
    public Certificate[] getServerCertificates() throws SSLPeerUnverifiedException {
        return session().getServerCertificates();
    }

    @Override
    public Principal getPeerPrincipal() throws SSLPeerUnverifiedException {
        return session().getPeerPrincipal();
    }

    @Override
    public Principal getLocalPrincipal() {
        return session().getLocalPrincipal();
    }
}
