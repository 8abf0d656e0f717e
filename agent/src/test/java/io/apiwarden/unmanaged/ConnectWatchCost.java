package io.apiwarden.unmanaged;

import io.apiwarden.core.scope.ApiScope;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;

/**
 * What the last-resort watch adds to a connect, for docs/benchmarks.md (not a test; run it with
 * {@code java -cp agent/target/classes:agent/target/test-classes io.apiwarden.unmanaged.ConnectWatchCost}):
 * the watch on another address, on the API's from a client it leaves alone (the stack walked), and a
 * loopback connect for scale. Warmed, then the mean of the best of five rounds.
 */
public final class ConnectWatchCost {
    private static volatile boolean sink;

    private ConnectWatchCost() {}

    public static void main(String[] args) throws Exception {
        ConnectWatch watch = new ConnectWatch(
                ApiScope.of(URI.create("http://localhost:8080/v1")),
                List.of(ConnectWatch.KnownClient.leftAlone(ConnectWatchCost.class::equals)),
                type -> false,
                "OkHttp",
                warning -> {
                    throw new AssertionError(warning);
                });
        InetSocketAddress elsewhere = new InetSocketAddress("localhost", 9090);
        InetSocketAddress sameHostOtherPort = InetSocketAddress.createUnresolved("localhost", 8081);
        InetSocketAddress api = InetSocketAddress.createUnresolved("localhost", 8080);
        Object socket = new Object();
        System.out.printf(
                "another address:            %8.1f ns%n", nanos(2_000_000, () -> sink = watch.test(socket, elsewhere)));
        System.out.printf(
                "the API's host, other port: %8.1f ns%n",
                nanos(2_000_000, () -> sink = watch.test(socket, sameHostOtherPort)));
        System.out.printf(
                "the API's host and port:    %8.1f ns (stack walked, a managed client's)%n",
                nanos(200_000, () -> sink = watch.test(socket, api)));
        try (ServerSocket server = new ServerSocket(0)) {
            InetSocketAddress local = new InetSocketAddress("localhost", server.getLocalPort());
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        server.accept().close();
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            System.out.printf(
                    "a loopback connect (bare):  %8.1f ns%n",
                    nanos(5_000, () -> {
                        try (Socket s = new Socket()) {
                            s.connect(local);
                        }
                    }));
        }
    }

    private static double nanos(int times, Work work) throws Exception {
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 6; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < times; i++) {
                work.run();
            }
            double each = (System.nanoTime() - start) / (double) times;
            // The first round warms up.
            best = round == 0 ? best : Math.min(best, each);
        }
        return best;
    }

    private interface Work {
        void run() throws Exception;
    }
}
