package io.apiwarden.it.apps;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;

/**
 * An app that runs before the agent is attached: it builds one client, prints its PID, waits for
 * a line on standard input (sent once the agent is loaded), builds a second client and calls the
 * URL with both.
 */
public final class LateAttachApp {
    private LateAttachApp() {}

    public static void main(String[] args) throws Exception {
        HttpClient before = HttpClient.newHttpClient();
        before.send(HttpRequest.newBuilder(URI.create(args[0])).build(), BodyHandlers.ofString());
        System.out.println("PID " + ProcessHandle.current().pid());
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        HttpClient after = HttpClient.newHttpClient();
        System.out.println("BEFORE "
                + before.send(HttpRequest.newBuilder(URI.create(args[0])).build(), BodyHandlers.ofString())
                        .statusCode());
        System.out.println("AFTER "
                + after.send(HttpRequest.newBuilder(URI.create(args[0])).build(), BodyHandlers.ofString())
                        .statusCode());
    }
}
