package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenTextTest {

    @Test
    void everyCharacterOfTheB64tokenAlphabetIsAccepted() {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/";
        for (char c : alphabet.toCharArray()) {
            assertThat(TokenText.flaw("a" + c + "b")).as("'%s'", c).isNull();
        }
        assertThat(TokenText.isToken("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"))
                .isTrue();
        assertThat(TokenText.isToken("bXkrY2xpZW50OnAlM0F3==")).isTrue();
        assertThat(TokenText.isToken("at_" + "x".repeat(43))).isTrue();
    }

    @Test
    void aQuoteIsNamedAsSuchWithoutQuotingTheToken() {
        assertThat(TokenText.flaw("\"rt-abc123\"")).isEqualTo("contains quotes");
        assertThat(TokenText.flaw("rt-abc'123")).isEqualTo("contains quotes");
        assertThat(TokenText.isToken("\"rt-abc123\"")).isFalse();
    }

    @Test
    void everyOtherCharacterIsRefusedWithItsKind() {
        assertThat(TokenText.flaw("rt abc")).isEqualTo("contains spaces or control characters");
        assertThat(TokenText.flaw("rt-abc\n")).isEqualTo("contains spaces or control characters");
        assertThat(TokenText.flaw("rt-\u00e9")).isEqualTo("contains characters outside ASCII");
        for (char c : "!#$%&()*,:;<>?@[\\]^`{|}".toCharArray()) {
            assertThat(TokenText.flaw("rt" + c + "abc"))
                    .as("'%s'", c)
                    .isEqualTo("contains punctuation other than - . _ ~ + /");
        }
    }

    @Test
    void equalsSignsArePaddingOnlyAtTheEnd() {
        assertThat(TokenText.flaw("abc==")).isNull();
        assertThat(TokenText.flaw("ab=c")).startsWith("has '=' before its end");
        assertThat(TokenText.flaw("==")).isEqualTo("starts with '='");
        assertThat(TokenText.flaw("=abc")).isEqualTo("starts with '='");
    }

    @Test
    void aLineBreakIsNamedBeforeTheQuotesItCameWith() {
        assertThat(TokenText.flaw("\"abc\"\n")).isEqualTo("contains spaces or control characters");
    }

    @Test
    void emptyAndAbsentAreNotTokens() {
        assertThat(TokenText.flaw("")).isEqualTo("is empty");
        assertThat(TokenText.isToken(null)).isFalse();
    }

    @Test
    void anAccessTokenLongerThanAHeaderCarriesIsRefusedWithTheLimit() {
        String atLimit = "a".repeat(TokenText.MAX_ACCESS_TOKEN_LENGTH);

        assertThat(TokenText.accessTokenFlaw(atLimit)).isNull();
        assertThat(TokenText.accessTokenFlaw(atLimit + "a"))
                .contains("16 KiB")
                .contains(String.valueOf(atLimit.length() + 1));
        // Refresh tokens never go into a header: no such limit.
        assertThat(TokenText.flaw(atLimit + "a")).isNull();
    }

    @Test
    void clientCredentialsNeedOnlyBePrintable() {
        assertThat(TokenText.isValid("s3cr3t!#$%")).isTrue();
        assertThat(TokenText.isValid("with space")).isFalse();
        assertThat(TokenText.isValid("tab\t")).isFalse();
    }
}
