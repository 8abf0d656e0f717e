package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** {@code java -jar apiwarden-demo.jar --serve} runs the simulated API for an app of one's own. */
class ServeIT {

    @Test
    void servePrintsItsUrlsAndAnswersUntilStopped() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process serve = new ProcessBuilder(
                        java,
                        "-cp",
                        AgentJarLocator.demoCodeSource().toString(),
                        DemoLauncher.class.getName(),
                        "--serve")
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertThat(first).startsWith("simulated API: http://127.0.0.1:");
            String base = first.substring("simulated API: ".length(), first.indexOf("  "));
            assertThat(out.readLine()).isEqualTo("token endpoint: " + base.replace("/api/v1", "/auth/token"));

            HttpResponse<String> user = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(base + "/user")).build(),
                            HttpResponse.BodyHandlers.ofString());

            assertThat(user.statusCode()).as("no token: the API's own answer").isEqualTo(401);
            assertThat(user.headers().firstValue("X-Request-Id")).isPresent();
        } finally {
            serve.destroy();
            serve.waitFor();
        }
    }
}
