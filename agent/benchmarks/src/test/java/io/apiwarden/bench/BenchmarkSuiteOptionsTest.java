package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchmarkSuiteOptionsTest {
    private static final Path DEFAULT_OUT = Paths.get("target", "benchmark-results.md");

    @Test
    void withoutArgumentsEverythingRunsInFull() {
        BenchmarkSuite.Options o = BenchmarkSuite.Options.parse(new String[0], DEFAULT_OUT);

        assertThat(o.effort).isEqualTo(Effort.FULL);
        // Management in pairs only when named: it takes about 40 minutes more at full effort.
        assertThat(o.parts)
                .containsExactlyInAnyOrder(
                        BenchmarkSuite.Part.STARTUP,
                        BenchmarkSuite.Part.PER_CALL,
                        BenchmarkSuite.Part.STORMS,
                        BenchmarkSuite.Part.THROTTLE_WINDOW);
        // The four the report compares; the others (ten APIs, the README's line, JFR) only when named.
        assertThat(o.setups)
                .containsExactlyInAnyOrder(
                        AgentSetup.NO_AGENT,
                        AgentSetup.API_WARDEN,
                        AgentSetup.API_WARDEN_UNTRACED,
                        AgentSetup.OTEL_AGENT);
        assertThat(o.out).isEqualTo(DEFAULT_OUT);
    }

    @Test
    void quickOnlyAndOutAreRead() {
        BenchmarkSuite.Options o = BenchmarkSuite.Options.parse(
                new String[] {"--quick", "--only=storms, startup", "--out=/tmp/r.md"}, DEFAULT_OUT);

        assertThat(o.effort).isEqualTo(Effort.QUICK);
        assertThat(o.parts).containsExactlyInAnyOrder(BenchmarkSuite.Part.STORMS, BenchmarkSuite.Part.STARTUP);
        assertThat(o.out).isEqualTo(Paths.get("/tmp/r.md"));
    }

    @Test
    void setupsChooseWhichAppsAreMeasured() {
        BenchmarkSuite.Options o =
                BenchmarkSuite.Options.parse(new String[] {"--setups=apiwarden, apiwarden-untraced"}, DEFAULT_OUT);

        assertThat(o.setups).containsExactly(AgentSetup.API_WARDEN, AgentSetup.API_WARDEN_UNTRACED);
        assertThatThrownBy(() -> BenchmarkSuite.Options.parse(new String[] {"--setups=warden"}, DEFAULT_OUT))
                .hasMessageContaining("'warden'")
                .hasMessageContaining("apiwarden-untraced");
    }

    @Test
    void exportersOffIsTheReadmeLineWithEveryExporterAtNone() {
        Target target = new Target(
                URI.create("http://127.0.0.1:1/api/v1"),
                URI.create("http://127.0.0.1:1/auth"),
                URI.create("http://127.0.0.1:1/health"),
                "bench-token",
                URI.create("http://127.0.0.1:2"),
                Path.of("apiwarden-agent.jar"),
                Path.of("otel.jar"));

        List<String> readme = AgentSetup.named("apiwarden-readme").jvmArgs(target);
        List<String> off = AgentSetup.named("apiwarden-exporters-off").jvmArgs(target);

        assertThat(off)
                .startsWith(readme.toArray(new String[0]))
                .endsWith("-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none");
        assertThatThrownBy(() -> AgentSetup.named("apiwarden-untraced-before").jvmArgs(target))
                .hasMessageContaining("apiwarden-untraced-before")
                .hasMessageContaining("-Dapiwarden.bench.before-jar=PATH");
    }

    @Test
    void waysChooseWhichCallsThePerCallPartMeasures() {
        BenchmarkSuite.Options o =
                BenchmarkSuite.Options.parse(new String[] {"--ways=apache-execute, reactor-netty"}, DEFAULT_OUT);

        assertThat(o.ways).containsExactly(AppCalls.Way.APACHE_EXECUTE, AppCalls.Way.REACTOR_NETTY);
        assertThat(BenchmarkSuite.Options.parse(
                                new String[] {
                                    "--ways=http-url-connection,rest-template,apache4-execute,vertx,jetty-send,micronaut,ktor-cio"
                                },
                                DEFAULT_OUT)
                        .ways)
                .containsExactly(
                        AppCalls.Way.HTTP_URL_CONNECTION,
                        AppCalls.Way.REST_TEMPLATE,
                        AppCalls.Way.APACHE4_EXECUTE,
                        AppCalls.Way.VERTX,
                        AppCalls.Way.JETTY_SEND,
                        AppCalls.Way.MICRONAUT,
                        AppCalls.Way.KTOR_CIO);
        assertThat(BenchmarkSuite.Options.parse(new String[0], DEFAULT_OUT).ways)
                .containsExactlyInAnyOrder(AppCalls.Way.values());
        assertThatThrownBy(() -> BenchmarkSuite.Options.parse(new String[] {"--ways=apache"}, DEFAULT_OUT))
                .hasMessageContaining("'apache'")
                .hasMessageContaining("apache-execute");
    }

    @Test
    void everyWayHasABenchmarkMethod() throws Exception {
        for (AppCalls.Way way : AppCalls.Way.values()) {
            assertThat(PerCallBenchmark.class.getMethod(way.benchmark))
                    .as(way.label)
                    .isNotNull();
            assertThat(PerCallRun.wayOf(way.benchmark)).isEqualTo(way);
        }
    }

    @Test
    void managementInPairsIsAPartOfItsOwn() {
        BenchmarkSuite.Options o = BenchmarkSuite.Options.parse(
                new String[] {"--only=management", "--ways=okhttp-execute", "--setups=apiwarden-untraced"},
                DEFAULT_OUT);

        assertThat(o.parts).containsExactly(BenchmarkSuite.Part.MANAGEMENT);
        assertThat(o.ways).containsExactly(AppCalls.Way.OKHTTP_EXECUTE);
        assertThat(o.setups).containsExactly(AgentSetup.API_WARDEN_UNTRACED);
    }

    @Test
    void unknownArgumentsAndPartsAreNamed() {
        assertThatThrownBy(() -> BenchmarkSuite.Options.parse(new String[] {"--fast"}, DEFAULT_OUT))
                .hasMessageContaining("'--fast'")
                .hasMessageContaining("--quick");
        assertThatThrownBy(() -> BenchmarkSuite.Options.parse(new String[] {"--only=jmh"}, DEFAULT_OUT))
                .hasMessageContaining("'jmh'")
                .hasMessageContaining("per-call");
    }

    @Test
    void variablesThatWouldConfigureAMeasuredJvmAreNamed() {
        assertThat(BenchmarkSuite.meddlingVariables(
                        Set.of("PATH", "OTEL_TRACES_EXPORTER", "JAVA_TOOL_OPTIONS", "APIWARDEN_BASE_URL", "HOME")))
                .containsExactly("APIWARDEN_BASE_URL", "JAVA_TOOL_OPTIONS", "OTEL_TRACES_EXPORTER");
    }
}
