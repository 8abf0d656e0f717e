package io.apiwarden.core.dpop;

import io.apiwarden.core.token.AccessToken;
import io.apiwarden.core.token.AccessTokens;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * What DPoP adds to each attempt: one proof signed, with the {@code Authorization} header, as {@code CallDriver} asks
 * for it. Not a test: run by hand for docs/benchmarks.md, {@code java -cp ... io.apiwarden.core.dpop.DpopProofCost
 * [ES256|PS256|RS256]}. Warm-up, then rounds of timed proofs, each round's mean printed, on one thread.
 */
public final class DpopProofCost {
    private static final int ROUND = 20_000;

    private DpopProofCost() {}

    public static void main(String[] args) throws Exception {
        String alg = args.length > 0 ? args[0] : "ES256";
        DpopKey key = alg.equals("ES256") ? DpopKey.generate(null) : DpopKey.read(java.nio.file.Path.of(args[1]), alg);
        Dpop dpop = Dpop.create(key, Clock.systemUTC());
        AccessToken token = AccessTokens.of("eyJ" + "a".repeat(900));
        Map<String, String> headers = new HashMap<>();
        int sink = 0;
        for (int round = 0; round < 8; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < ROUND; i++) {
                dpop.authorize("GET", "https://api.example.com/v1/orders/42", token, headers::put);
                sink += headers.get("DPoP").length();
            }
            long nanos = System.nanoTime() - start;
            System.out.printf("%s round %d: %.1f µs per proof%n", alg, round, nanos / 1000.0 / ROUND);
        }
        System.out.println("(" + sink + ")");
    }
}
