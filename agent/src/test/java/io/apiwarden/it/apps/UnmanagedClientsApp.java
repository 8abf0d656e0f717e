package io.apiwarden.it.apps;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/**
 * An app that calls through clients the agent does not manage, and through one it does. Each argument
 * is one step, a GET that prints {@code STATUS code body}:
 * <ul>
 *   <li>{@code url:URL}: through {@link HttpURLConnection};
 *   <li>{@code apache4:URL}: through Apache HttpClient 4 (a client of its own per step, as apps often do);
 *   <li>{@code jdk:URL}: through {@code java.net.http.HttpClient}, which the agent manages;
 *   <li>{@code raw:URL}: an HTTP/1.1 GET written on a plain {@code java.net.Socket}, no client at all.
 * </ul>
 * Apache HttpClient 4 is on the class path only when a test puts it there; the other steps never touch it.
 */
public final class UnmanagedClientsApp {
    private UnmanagedClientsApp() {}

    public static void main(String[] args) throws Exception {
        for (String step : args) {
            int colon = step.indexOf(':');
            String kind = step.substring(0, colon);
            String url = step.substring(colon + 1);
            switch (kind) {
                case "url":
                    urlConnection(url);
                    break;
                case "apache4":
                    Apache4.get(url);
                    break;
                case "retransform":
                    // Another agent retransforms the watched class: it must keep working, and keep its watch.
                    SecondAgent.retransform(url);
                    System.out.println("RETRANSFORMED " + url);
                    break;
                case "raw":
                    rawSocket(URI.create(url));
                    break;
                case "jdk":
                    var response = HttpClient.newHttpClient()
                            .send(HttpRequest.newBuilder(URI.create(url)).build(), BodyHandlers.ofString());
                    System.out.println("STATUS " + response.statusCode() + " " + response.body());
                    break;
                default:
                    throw new IllegalArgumentException("unknown step " + step);
            }
        }
    }

    private static void urlConnection(String url) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        int status = connection.getResponseCode();
        try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
            System.out.println("STATUS " + status + " " + new String(body.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static void rawSocket(URI url) throws Exception {
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            String request = "GET " + url.getRawPath() + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                    + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            // The body is read by its length: the server need not close the connection.
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            String status = in.readLine().split(" ")[1];
            int length = 0;
            for (String header = in.readLine(); !header.isEmpty(); header = in.readLine()) {
                if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(
                            header.substring("content-length:".length()).trim());
                }
            }
            char[] body = new char[length];
            for (int read = 0; read < length; ) {
                read += in.read(body, read, length - read);
            }
            System.out.println("STATUS " + status + " " + new String(body));
        }
    }

    /** Apart, so that the app's other steps run without Apache HttpClient on the class path. */
    private static final class Apache4 {
        static void get(String url) throws Exception {
            try (CloseableHttpClient client = HttpClients.createDefault();
                    CloseableHttpResponse response = client.execute(new HttpGet(url))) {
                System.out.println("STATUS " + response.getStatusLine().getStatusCode() + " "
                        + EntityUtils.toString(response.getEntity()));
            }
        }
    }
}
