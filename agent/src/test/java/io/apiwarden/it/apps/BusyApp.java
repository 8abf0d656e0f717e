package io.apiwarden.it.apps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.concurrent.TimeUnit;

/**
 * An app that keeps calling the API until it is killed, with no auth code: {@code URL SECONDS}. One
 * thread calls with {@code send}, another with {@code sendAsync}, each a call every few
 * milliseconds. Prints each status other than 200. Ends by itself after {@code SECONDS}, so that a
 * test that dies before it kills the app leaves no process behind for long.
 */
public final class BusyApp {
    /** Between two calls of one thread: a steady stream of calls that leaves the machine some room. */
    private static final long PAUSE_MILLIS = 5;

    private BusyApp() {}

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(url).build();
        Thread async = new Thread(
                () -> loop(end, () -> client.sendAsync(request, BodyHandlers.ofString())
                        .get(30, TimeUnit.SECONDS)),
                "async-caller");
        async.setDaemon(true);
        async.start();
        loop(end, () -> client.send(request, BodyHandlers.ofString()));
    }

    private interface Call {
        HttpResponse<String> make() throws Exception;
    }

    private static void loop(long end, Call call) {
        while (System.nanoTime() < end) {
            try {
                HttpResponse<String> response = call.make();
                if (response.statusCode() != 200) {
                    System.out.println("STATUS " + response.statusCode());
                }
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                System.out.println("FAILED " + e);
            }
        }
    }
}
