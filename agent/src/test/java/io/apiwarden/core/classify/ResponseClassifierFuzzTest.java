package io.apiwarden.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The classifier under any status, any challenge and any body bytes: it always answers, and only
 * with the verdicts each method documents.
 */
class ResponseClassifierFuzzTest {
    /** Pieces of real challenges and bodies, so that random text often comes close to what matters. */
    private static final List<String> FRAGMENTS = List.of(
            "Bearer",
            "bearer",
            "Basic",
            " ",
            "  ",
            ",",
            "=",
            "\"",
            "error",
            "ERROR",
            "invalid_token",
            "invalid token",
            "Invalid Token",
            "realm=\"api\"",
            "error_description=",
            "rate limit",
            "exceeded",
            "Rate Limit Exceeded",
            "{",
            "}",
            "\n",
            "\u0000",
            "\u00e9",
            "\u2028");

    private final ResponseClassifier classifier = new ResponseClassifier();

    @Property(tries = 400)
    void fromHeadDecidesOnlyWhatStatusAndHeadersCanTell(
            @ForAll("statuses") int status, @ForAll("challengeLists") List<String> challenges) {
        Verdict v = classifier.fromHead(status, name -> challenges);

        assertThat(v).isIn(null, Verdict.SUCCESS, Verdict.INVALID_TOKEN, Verdict.GLOBAL_RATE_LIMIT);
        if (status == 401) {
            assertThat(v).isEqualTo(Verdict.INVALID_TOKEN);
        }
        if (status == 429) {
            assertThat(v).isIn(Verdict.INVALID_TOKEN, Verdict.GLOBAL_RATE_LIMIT);
        }
        if (status < 400) {
            assertThat(v).isIn(Verdict.SUCCESS, Verdict.INVALID_TOKEN);
        }
    }

    @Property(tries = 200)
    void fromStatusAlwaysNamesAnErrorClass(@ForAll("statuses") int status) {
        assertThat(classifier.fromStatus(status)).isEqualTo(status < 500 ? Verdict.CLIENT_ERROR : Verdict.SERVER_ERROR);
    }

    @Property(tries = 400)
    void fromBodyAlwaysAnswersWithAnErrorVerdict(
            @ForAll("statuses") int status, @ForAll("bodies") byte[] body, @ForAll("fractions") double readPart) {
        int length = (int) (body.length * readPart);

        Verdict v = classifier.fromBody(status, body, length);

        assertThat(v)
                .isIn(Verdict.GLOBAL_RATE_LIMIT, Verdict.INVALID_TOKEN, Verdict.CLIENT_ERROR, Verdict.SERVER_ERROR);
        if (status >= 500) {
            assertThat(v).as("a server error is never blamed on the token").isNotEqualTo(Verdict.INVALID_TOKEN);
        }
        if (EnumSet.of(Verdict.CLIENT_ERROR, Verdict.SERVER_ERROR).contains(v)) {
            assertThat(v).isEqualTo(classifier.fromStatus(status));
        }
    }

    @Property(tries = 200)
    void rateLimitExceededAnywhereInTheReadPartWins(
            @ForAll("statuses") int status,
            @ForAll("bodies") byte[] body,
            @ForAll("fractions") double where,
            @ForAll boolean upperCase) {
        int at = (int) (body.length * where);
        byte[] phrase =
                (upperCase ? "RATE LIMIT EXCEEDED" : "rate limit exceeded").getBytes(StandardCharsets.ISO_8859_1);
        byte[] withPhrase = new byte[body.length + phrase.length];
        System.arraycopy(body, 0, withPhrase, 0, at);
        System.arraycopy(phrase, 0, withPhrase, at, phrase.length);
        System.arraycopy(body, at, withPhrase, at + phrase.length, body.length - at);

        assertThat(classifier.fromBody(status, withPhrase, withPhrase.length)).isEqualTo(Verdict.GLOBAL_RATE_LIMIT);
    }

    /** Mostly the statuses HTTP has, sometimes any int a broken stack could report. */
    @Provide
    Arbitrary<Integer> statuses() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.integers().between(100, 599)),
                Tuple.of(1, Arbitraries.of(401, 429, 500, 503)),
                Tuple.of(1, Arbitraries.integers()));
    }

    @Provide
    Arbitrary<List<String>> challengeLists() {
        Arbitrary<String> assembled =
                Arbitraries.of(FRAGMENTS).list().ofMaxSize(12).map(parts -> String.join("", parts));
        Arbitrary<String> random = Arbitraries.strings().all().ofMaxLength(60);
        return Arbitraries.oneOf(assembled, random).list().ofMaxSize(3);
    }

    @Provide
    Arbitrary<byte[]> bodies() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(600);
        Arbitrary<byte[]> assembled = Combinators.combine(
                        Arbitraries.of(FRAGMENTS).list().ofMaxSize(16), Arbitraries.of(true, false))
                .as((parts, latin1) -> String.join("", parts)
                        .toLowerCase(Locale.ROOT)
                        .getBytes(latin1 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8));
        return Arbitraries.oneOf(random, assembled);
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.doubles().between(0, 1);
    }
}
