package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.LateAttachApp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code java -jar apiwarden-agent.jar attach <pid>} loads the agent into a running JVM. */
class AttachIT extends AgainstFakeApi {

    @Test
    void clientsBuiltAfterTheAttachAreManagedAndEarlierOnesStayAsTheyWere() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String url = server.url("/api/v1/user").toString();
        Process app = new ProcessBuilder(
                        java, "-cp", System.getProperty("apiwarden.it.app-classes"), LateAttachApp.class.getName(), url)
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader appOut =
                    new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
            String pidLine = appOut.readLine();
            assertThat(pidLine).startsWith("PID ");

            Process attach = new ProcessBuilder(
                            java,
                            "-jar",
                            AgentJvm.agentJar().toString(),
                            "attach",
                            pidLine.substring(4),
                            "apiwarden.base-url=" + server.url("/api/v1"),
                            "access-token=" + FakeOAuthApi.ISSUED_TOKEN)
                    .redirectErrorStream(true)
                    .start();
            String attachOut = new String(attach.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(attach.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(attach.exitValue()).as(attachOut).isZero();
            assertThat(attachOut)
                    .contains("loaded into JVM " + pidLine.substring(4))
                    .doesNotContain(FakeOAuthApi.ISSUED_TOKEN);

            Writer in = new OutputStreamWriter(app.getOutputStream(), StandardCharsets.UTF_8);
            in.write("go\n");
            in.flush();
            List<String> rest = appOut.lines()
                    .filter(l -> l.startsWith("BEFORE") || l.startsWith("AFTER"))
                    .toList();
            assertThat(app.waitFor(60, TimeUnit.SECONDS)).isTrue();

            assertThat(rest).containsExactly("BEFORE 401", "AFTER 200");
            assertThat(api.apiRequests)
                    .extracting(r -> r.getHeaders().get("Authorization"))
                    .containsExactly(null, null, "Bearer " + FakeOAuthApi.ISSUED_TOKEN);
        } finally {
            app.destroyForcibly();
        }
    }
}
