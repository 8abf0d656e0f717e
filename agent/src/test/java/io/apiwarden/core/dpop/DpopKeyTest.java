package io.apiwarden.core.dpop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DPoP key from a PKCS#8 PEM file: its public key derived, its algorithm checked, bad files named. */
class DpopKeyTest {
    @TempDir
    Path dir;

    private Path pem(String name, String type, byte[] der) throws Exception {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        Path file = dir.resolve(name);
        Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
        return file;
    }

    private static KeyPair ec(String curve) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec(curve));
        return g.generateKeyPair();
    }

    /** A key of the tests' resources: RSA keys take seconds to generate on a busy machine. */
    static Path resource(String name) throws Exception {
        return Path.of(DpopKeyTest.class.getResource("/dpop/" + name).toURI());
    }

    private static boolean signs(DpopKey key, String algorithm) throws Exception {
        Signature s = Signature.getInstance(algorithm);
        s.initSign(key.pair().getPrivate());
        s.update(new byte[] {1, 2, 3});
        byte[] signature = s.sign();
        s.initVerify(key.pair().getPublic());
        s.update(new byte[] {1, 2, 3});
        return s.verify(signature);
    }

    @Test
    void anEcP256KeyIsReadWithThePublicKeyOfItsPrivateOneAndSignsEs256() throws Exception {
        KeyPair pair = ec("secp256r1");

        DpopKey key =
                DpopKey.read(pem("ec.pem", "PRIVATE KEY", pair.getPrivate().getEncoded()), null);

        assertThat(key.algorithm()).isEqualTo(DpopKey.Algorithm.ES256);
        assertThat(key.generated()).isFalse();
        assertThat(key.pair().getPublic().getEncoded())
                .isEqualTo(pair.getPublic().getEncoded());
        assertThat(signs(key, "SHA256withECDSA")).isTrue();
    }

    @Test
    void anOpensslKeyWithTextBeforeItsBlockIsRead() throws Exception {
        DpopKey key = DpopKey.read(resource("ec-p256.pem"), "es256");

        assertThat(key.algorithm()).isEqualTo(DpopKey.Algorithm.ES256);
        assertThat(signs(key, "SHA256withECDSA")).isTrue();
    }

    @Test
    void anRsaKeyIsPs256UnlessRs256IsAsked() throws Exception {
        Path file = resource("rsa-2048.pem");

        assertThat(DpopKey.read(file, null).algorithm()).isEqualTo(DpopKey.Algorithm.PS256);
        assertThat(DpopKey.read(file, "rs256").algorithm()).isEqualTo(DpopKey.Algorithm.RS256);
        assertThat(signs(DpopKey.read(file, null), "SHA256withRSA")).isTrue();
    }

    @Test
    void aKeyThatCannotSignTheAskedAlgorithmIsRefusedSayingWhich() throws Exception {
        Path ecFile = pem("ec.pem", "PRIVATE KEY", ec("secp256r1").getPrivate().getEncoded());

        assertThatThrownBy(() -> DpopKey.read(ecFile, "PS256")).hasMessageContaining("ES256 needs an EC P-256 key");
        assertThatThrownBy(() -> DpopKey.read(ecFile, "HS256")).hasMessageContaining("use ES256, PS256 or RS256");
        Path p384 = pem("p384.pem", "PRIVATE KEY", ec("secp384r1").getPrivate().getEncoded());
        assertThatThrownBy(() -> DpopKey.read(p384, null)).hasMessageContaining("another curve than P-256");
        Path small = resource("rsa-1024.pem");
        assertThatThrownBy(() -> DpopKey.read(small, null)).hasMessageContaining("1024 bits");
    }

    @Test
    void filesInOtherFormsAreRefusedWithHowToConvertThem() throws Exception {
        byte[] der = ec("secp256r1").getPrivate().getEncoded();

        assertThatThrownBy(() -> DpopKey.read(pem("sec1.pem", "EC PRIVATE KEY", der), null))
                .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
        assertThatThrownBy(() -> DpopKey.read(pem("enc.pem", "ENCRYPTED PRIVATE KEY", der), null))
                .hasMessageContaining("encrypted");
        assertThatThrownBy(() -> DpopKey.read(pem("junk.pem", "PRIVATE KEY", new byte[] {1, 2, 3}), null))
                .hasMessageContaining("neither RSA nor EC");
        Path text = dir.resolve("text");
        Files.writeString(text, "not a key");
        assertThatThrownBy(() -> DpopKey.read(text, null)).hasMessageContaining("BEGIN PRIVATE KEY");
        assertThatThrownBy(() -> DpopKey.read(dir.resolve("missing"), null)).hasMessageContaining("cannot be read");
    }

    @Test
    void noMessageShowsTheKey() throws Exception {
        byte[] der = ec("secp256r1").getPrivate().getEncoded();
        Path file = pem("enc.pem", "ENCRYPTED PRIVATE KEY", der);
        String base64 = Base64.getEncoder().encodeToString(der);

        assertThatThrownBy(() -> DpopKey.read(file, null))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(base64.substring(0, 20)));
    }
}
