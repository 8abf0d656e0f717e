package io.apiwarden.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JOSE library (Nimbus) loads only when a feature that needs it is configured: a token request with the
 * default client authentication loads none of its classes; one with private_key_jwt does.
 */
class JoseLoadingTest {
    @TempDir
    Path folder;

    private HttpServer tokenService;

    @BeforeEach
    void start() throws Exception {
        tokenService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        tokenService.createContext("/token", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "{\"access_token\":\"a-1\",\"token_type\":\"Bearer\",\"expires_in\":300}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        tokenService.start();
    }

    @AfterEach
    void stop() {
        tokenService.stop(0);
    }

    private Map<String, String> clientCredentials() {
        Map<String, String> p = new HashMap<>();
        p.put("apiwarden.base-url", "https://api.example.com");
        p.put(
                "apiwarden.token-url",
                "http://127.0.0.1:" + tokenService.getAddress().getPort() + "/token");
        p.put("apiwarden.grant", "client_credentials");
        p.put("apiwarden.client-id", "svc-orders");
        return p;
    }

    /** The names of the classes a token request loads, made in a class loader of its own. */
    private static Set<String> classesLoadedBy(Map<String, String> properties) throws Exception {
        Set<String> loaded = ConcurrentHashMap.newKeySet();
        List<URL> path = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            path.add(Paths.get(entry).toUri().toURL());
        }
        try (URLClassLoader own = new URLClassLoader(path.toArray(new URL[0]), ClassLoader.getPlatformClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                loaded.add(name);
                return super.loadClass(name, resolve);
            }
        }) {
            @SuppressWarnings("unchecked")
            Function<Map<String, String>, String> scenario =
                    (Function<Map<String, String>, String>) own.loadClass(TokenRequestScenario.class.getName())
                            .getDeclaredConstructor()
                            .newInstance();
            assertThat(scenario.apply(properties)).isEqualTo("a token");
        }
        return loaded;
    }

    @Test
    void aTokenRequestWithTheDefaultClientAuthenticationLoadsNoJoseClass() throws Exception {
        Map<String, String> p = clientCredentials();
        p.put("apiwarden.client-secret", "s3cr3t");

        Set<String> loaded = classesLoadedBy(p);

        assertThat(loaded).contains("io.apiwarden.core.token.HttpTokenEndpoint");
        assertThat(loaded).noneMatch(name -> name.startsWith("com.nimbusds") || name.contains(".jose."));
    }

    @Test
    void privateKeyJwtLoadsTheJoseLibrary() throws Exception {
        Path key = Files.writeString(
                folder.resolve("key.pem"),
                new HeldCertificate.Builder().ecdsa256().build().privateKeyPkcs8Pem());
        Map<String, String> p = clientCredentials();
        p.put("apiwarden.client-auth", "private_key_jwt");
        p.put("apiwarden.client-assertion.key-file", key.toString());

        assertThat(classesLoadedBy(p)).anyMatch(name -> name.startsWith("com.nimbusds.jose"));
    }
}
