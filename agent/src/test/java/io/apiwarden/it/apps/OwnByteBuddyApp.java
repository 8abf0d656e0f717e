package io.apiwarden.it.apps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import net.bytebuddy.ByteBuddy;

/**
 * An app that brings its own (older) Byte Buddy and uses it next to a managed JDK client: the
 * agent's relocated copy must not meet it.
 */
public final class OwnByteBuddyApp {
    private OwnByteBuddyApp() {}

    public static void main(String[] args) throws Exception {
        Class<?> made = new ByteBuddy()
                .subclass(Object.class)
                .name("io.apiwarden.it.apps.Made")
                .make()
                .load(OwnByteBuddyApp.class.getClassLoader())
                .getLoaded();
        System.out.println("BYTEBUDDY " + made.getName() + " from "
                + ByteBuddy.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .getPath());
        HttpClient client = HttpClient.newHttpClient();
        System.out.println("STATUS "
                + client.send(HttpRequest.newBuilder(URI.create(args[0])).build(), BodyHandlers.ofString())
                        .statusCode());
    }
}
