package io.apiwarden.clients.huc.library;

import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * What the app set on its connection before it connected, read once from the managed connection and put
 * on each of the JDK's connections the agent opens for it: method, request properties, flags, time-outs,
 * streaming mode, authenticator, and for HTTPS the socket factory and host name verifier.
 */
final class AppSettings {
    final String method;
    /** The app's request properties, in the order it set them; the managed connection hides none of them here. */
    final Map<String, List<String>> properties;

    final boolean doInput;
    final boolean doOutput;
    final boolean useCaches;
    final boolean allowUserInteraction;
    final long ifModifiedSince;
    final int connectTimeout;
    final int readTimeout;
    final boolean followRedirects;
    /** The app's fixed length, or -1. */
    final long fixedLength;
    /** The app's chunk length, or -1 when it did not ask for chunked streaming. */
    final int chunkLength;

    final Authenticator authenticator;
    final SSLSocketFactory sslSocketFactory;
    final HostnameVerifier hostnameVerifier;

    // One argument per setting of HttpURLConnection that a connection does not let be read back.
    @SuppressWarnings("TooManyParameters")
    AppSettings(
            HttpURLConnection app,
            Map<String, List<String>> properties,
            long fixedLength,
            int chunkLength,
            Authenticator authenticator) {
        this.method = app.getRequestMethod();
        this.properties = copy(properties);
        this.doInput = app.getDoInput();
        this.doOutput = app.getDoOutput();
        this.useCaches = app.getUseCaches();
        this.allowUserInteraction = app.getAllowUserInteraction();
        this.ifModifiedSince = app.getIfModifiedSince();
        this.connectTimeout = app.getConnectTimeout();
        this.readTimeout = app.getReadTimeout();
        this.followRedirects = app.getInstanceFollowRedirects() && HttpURLConnection.getFollowRedirects();
        this.fixedLength = fixedLength;
        this.chunkLength = chunkLength;
        this.authenticator = authenticator;
        if (app instanceof HttpsURLConnection) {
            this.sslSocketFactory = ((HttpsURLConnection) app).getSSLSocketFactory();
            this.hostnameVerifier = ((HttpsURLConnection) app).getHostnameVerifier();
        } else {
            this.sslSocketFactory = null;
            this.hostnameVerifier = null;
        }
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> properties) {
        Map<String, List<String>> c = new LinkedHashMap<>();
        properties.forEach((k, v) -> {
            if (k != null) {
                c.put(k, new ArrayList<>(v));
            }
        });
        return c;
    }

    /** Whether the app set request property {@code name} (any case). */
    boolean hasProperty(String name) {
        for (String k : properties.keySet()) {
            if (k.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the app streams its body (fixed length or chunked): the JDK then cannot send it twice. */
    boolean streams() {
        return fixedLength >= 0 || chunkLength >= 0;
    }

    /**
     * Puts the settings on {@code real} for a request of {@code method}; {@code withProperties} false for a
     * redirect hop that became a GET, which the JDK sends without the app's request properties.
     * {@code follow} is whether {@code real} follows redirects itself.
     */
    void applyTo(HttpURLConnection real, String method, boolean withProperties, boolean withBody, boolean follow)
            throws java.net.ProtocolException {
        real.setRequestMethod(method);
        real.setDoInput(doInput);
        real.setDoOutput(withBody);
        real.setUseCaches(useCaches);
        real.setAllowUserInteraction(allowUserInteraction);
        real.setIfModifiedSince(ifModifiedSince);
        real.setConnectTimeout(connectTimeout);
        real.setReadTimeout(readTimeout);
        real.setInstanceFollowRedirects(follow);
        if (withBody && fixedLength >= 0) {
            real.setFixedLengthStreamingMode(fixedLength);
        } else if (withBody && chunkLength >= 0) {
            real.setChunkedStreamingMode(chunkLength);
        }
        if (authenticator != null) {
            real.setAuthenticator(authenticator);
        }
        if (real instanceof HttpsURLConnection) {
            HttpsURLConnection https = (HttpsURLConnection) real;
            if (sslSocketFactory != null) {
                https.setSSLSocketFactory(sslSocketFactory);
            }
            if (hostnameVerifier != null) {
                https.setHostnameVerifier(hostnameVerifier);
            }
        }
        if (withProperties) {
            properties.forEach((name, values) -> {
                // The JDK lists a property's values last set first: added back in the order they were set.
                for (int i = values.size() - 1; i >= 0; i--) {
                    real.addRequestProperty(name, values.get(i));
                }
            });
        }
    }
}
