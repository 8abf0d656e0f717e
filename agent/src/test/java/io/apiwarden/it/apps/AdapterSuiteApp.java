package io.apiwarden.it.apps;

import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.ClientFace.Body;
import io.apiwarden.adapters.ClientFace.Call;
import io.apiwarden.adapters.ClientFace.Reply;
import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.adapters.ParkedThreads;
import io.apiwarden.adapters.faces.ApacheAsyncFace;
import io.apiwarden.adapters.faces.ApacheClassicFace;
import io.apiwarden.adapters.faces.JdkFaces;
import io.apiwarden.adapters.faces.OkHttpFaces;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The client side of the adapter suite ({@code ClientAdapterAgentIT}), in an app with no auth code
 * started with the agent: the faces of one client ({@link ClientFace}, the same the in-process
 * contract drives), built as the app builds its clients, run through each case against the test's
 * server. Arguments: {@code CLIENT API ELSEWHERE OTHER_HOST}, the base URLs of the server, of another
 * server, and of the first under another host name. Each face {@code F} calls paths under
 * {@code /api/v1/F/}; each case prints {@code CASE F case what-the-app-got}, and the test looks at
 * what the server received.
 */
public final class AdapterSuiteApp {
    private static final int STORM = 50;
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final String api;
    private final String elsewhere;
    private final String otherHost;

    private AdapterSuiteApp(String api, String elsewhere, String otherHost) {
        this.api = api;
        this.elsewhere = elsewhere;
        this.otherHost = otherHost;
    }

    public static void main(String[] args) throws Exception {
        AdapterSuiteApp app = new AdapterSuiteApp(args[1], args[2], args[3]);
        Map<String, BiFunction<String, Boolean, ClientFace>> faces = faces(args[0]);
        List<ClientFace> opened = new ArrayList<>();
        Map<String, ClientFace> plain = new LinkedHashMap<>();
        Map<String, ClientFace> following = new LinkedHashMap<>();
        faces.forEach((name, make) -> {
            plain.put(name, make.apply(name, false));
            following.put(name, make.apply(name, true));
        });
        opened.addAll(plain.values());
        opened.addAll(following.values());
        try {
            // The cancelled call's wait (a second) is over before the app ends: a resend it failed to stop would show.
            for (String kase : List.of("bearer", "refresh", "refused", "streamed", "redirect-away", "redirect-out", "cancel",
                    "storm", "backoff")) {
                for (String name : faces.keySet()) {
                    ClientFace face = kase.startsWith("redirect") ? following.get(name) : plain.get(name);
                    String got = app.run(kase, name, face);
                    if (got != null) {
                        System.out.println("CASE " + name + " " + kase + " " + got);
                    }
                }
            }
        } finally {
            opened.forEach(ClientFace::close);
        }
    }

    /** The faces of one client, by name, each made for redirects followed or not, as an app builds its clients. */
    private static Map<String, BiFunction<String, Boolean, ClientFace>> faces(String client) {
        Map<String, BiFunction<String, Boolean, ClientFace>> faces = new LinkedHashMap<>();
        switch (client) {
            case "jdk":
                faces.put("send", (n, follow) -> JdkFaces.send(JdkFaces.builder(follow).build()));
                faces.put("send-async", (n, follow) -> JdkFaces.sendAsync(JdkFaces.builder(follow).build()));
                break;
            case "okhttp":
                faces.put("execute", (n, follow) -> OkHttpFaces.execute(OkHttpFaces.builder(follow).build(), OkHttpFaces.CallMethods.own()));
                faces.put("enqueue", (n, follow) -> OkHttpFaces.enqueue(OkHttpFaces.builder(follow).build(), OkHttpFaces.CallMethods.own()));
                break;
            case "apache":
                faces.put("classic", (n, follow) -> new ApacheClassicFace(ApacheClassicFace.builder(follow).build()));
                faces.put("async", (n, follow) -> new ApacheAsyncFace(ApacheAsyncFace.builder(follow).build()));
                break;
            case "reactor-netty":
                faces.put("subscribe", (n, follow) -> ReactorNettyFaces.plain(follow));
                break;
            default:
                throw new IllegalArgumentException("unknown client " + client);
        }
        return faces;
    }

    private String run(String kase, String face, ClientFace client) throws Exception {
        String base = api + "/api/v1/" + face;
        switch (kase) {
            case "bearer":
                return client.call(Call.get(base + "/bearer")).status()
                        + " " + client.call(Call.get(api + "/api/v1beta/" + face + "/bearer")).status()
                        + " " + client.call(Call.get(api + "/other/" + face + "/bearer")).status()
                        + " " + client.call(Call.get(elsewhere + "/api/v1/" + face + "/bearer")).status()
                        + " " + client.call(Call.get(otherHost + "/api/v1/" + face + "/bearer-host")).status();
            case "refresh":
            case "refused":
            case "redirect-away":
            case "redirect-out":
                return reply(client.call(Call.get(base + "/" + kase)));
            case "backoff":
                openTheGate(client, base);
                return reply(client.call(Call.get(base + "/" + kase)));
            case "streamed":
                return reply(client.call(Call.post(base + "/streamed", "{\"streamed\":\"" + face + "\"}", Body.STREAMED)));
            case "cancel":
                return cancel(client, base + "/cancel", "/api/v1/" + face + "/cancel");
            case "storm":
                if (!client.async()) {
                    return null;
                }
                openTheGate(client, base);
                return storm(client, base + "/storm");
            default:
                throw new IllegalArgumentException(kase);
        }
    }

    /**
     * A call answered 200 (an unscripted path), which opens the agent's rate-limit gate. The storm and
     * backoff cases start with no window known: the one the last refusal left (the cancel case's 1 s,
     * another face's backoff) would hold their calls at the gate first, a wait that counts against
     * each call's whole back-off and costs it the resend the case looks for.
     */
    private static void openTheGate(ClientFace client, String base) throws Exception {
        client.call(Call.get(base + "/opens-the-gate"));
    }

    private static String reply(Reply reply) {
        return reply.status() + " " + reply.body();
    }

    /** Cancels the call once the server has answered it (rate limited, a second's wait asked for). */
    private String cancel(ClientFace client, String url, String path) throws Exception {
        Running call = client.start(Call.get(url));
        HttpClient probe = HttpClient.newHttpClient();
        long until = System.nanoTime() + PATIENCE.toNanos();
        while (!"1".equals(probe.send(HttpRequest.newBuilder(URI.create(api + "/arrivals?path=" + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body())) {
            if (System.nanoTime() > until) {
                return "never-answered";
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        long cancelled = System.nanoTime();
        call.cancel();
        String how;
        try {
            Reply r = call.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            how = "reply-" + r.status();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
            how = "failed";
        }
        return "ended=" + how + " fast=" + (System.nanoTime() - cancelled < TimeUnit.SECONDS.toNanos(5));
    }

    /** Many calls waiting out the rate limit at once; threads the agent's code keeps parked are looked for all along. */
    private static String storm(ClientFace client, String url) throws Exception {
        List<Running> calls = new ArrayList<>();
        for (int i = 0; i < STORM; i++) {
            calls.add(client.start(Call.get(url)));
        }
        // Every wait here lasts a second (the server's window): a thread held by one would be seen all along.
        ParkedThreads.Watch watch = new ParkedThreads.Watch(Duration.ofMillis(250));
        long until = System.nanoTime() + PATIENCE.toNanos();
        while (calls.stream().anyMatch(c -> !c.outcome().isDone()) && System.nanoTime() < until) {
            watch.sample();
            TimeUnit.MILLISECONDS.sleep(20);
        }
        TreeMap<Integer, Integer> statuses = new TreeMap<>();
        for (Running call : calls) {
            statuses.merge(call.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS).status(), 1, Integer::sum);
        }
        return statuses + " samples=" + watch.samples() + " held=" + watch.held();
    }
}
