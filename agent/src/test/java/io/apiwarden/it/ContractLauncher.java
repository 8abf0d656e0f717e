package io.apiwarden.it;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Nested;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * The main class of the JVM {@link ContractWithTheAgentIT} starts with the agent attached: runs
 * {@link ClientAdapterContractAgentIT}'s faces on the JUnit Platform, writes the usual XML reports, runs a
 * failed case once more (a case that then passes is reported as a flake, as Failsafe does for its own), and
 * exits with 0 when every case passed, 1 otherwise.
 *
 * <p>Arguments: the tag expression of the cases to run, the directory of the reports, a pattern of the
 * faces' class names ({@code .*} for all), and optionally the class whose {@code @Nested} faces to run (by default
 * {@link ClientAdapterContractAgentIT}; a module with another class path, Vert.x 5's, names its own).
 */
public final class ContractLauncher {
    private ContractLauncher() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 4) {
            throw new IllegalArgumentException(
                    "usage: ContractLauncher <tag expression> <reports dir> <faces pattern> [<faces class>]");
        }
        String tags = args[0];
        Path reports = Paths.get(args[1]);
        Pattern faces = Pattern.compile(args[2]);
        Class<?> holder = args.length == 4 ? Class.forName(args[3]) : ClientAdapterContractAgentIT.class;
        Files.createDirectories(reports);

        Launcher launcher = LauncherFactory.create();
        Failures first = new Failures();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        try (PrintWriter log = new PrintWriter(System.out, true, StandardCharsets.UTF_8)) {
            launcher.execute(
                    request(selectFaces(holder, faces), tags),
                    summary,
                    first,
                    new LegacyXmlReportGeneratingListener(reports, log));
            TestExecutionSummary s = summary.getSummary();
            System.out.printf(
                    "contract with the agent (%s): %d cases, %d passed, %d skipped, %d failed%n",
                    tags,
                    s.getTestsFoundCount(),
                    s.getTestsSucceededCount(),
                    s.getTestsSkippedCount() + s.getTestsAbortedCount(),
                    s.getTestsFailedCount());
            if (first.byId.isEmpty()) {
                System.exit(s.getTestsFoundCount() == 0 ? 1 : 0);
            }

            // Once more, each failed case alone.
            List<DiscoverySelector> again = new ArrayList<>();
            first.byId.keySet().forEach(id -> again.add(selectUniqueId(id)));
            Failures second = new Failures();
            launcher.execute(request(again, tags), second);
            first.byId.forEach((id, failure) -> System.out.printf(
                    "%s %s%n%s%n",
                    second.byId.containsKey(id) ? "FAILED" : "FLAKE (passed when run again)",
                    failure.name,
                    failure.trace));
            second.byId.values().forEach(failure -> System.out.printf("run again:%n%s%n", failure.trace));
            System.exit(second.byId.isEmpty() ? 0 : 1);
        }
    }

    /** The faces whose simple names match: {@code @Nested} classes of {@code holder}, the agent-attached half. */
    private static List<DiscoverySelector> selectFaces(Class<?> holder, Pattern faces) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (Class<?> face : holder.getDeclaredClasses()) {
            if (face.isAnnotationPresent(Nested.class)
                    && faces.matcher(face.getSimpleName()).matches()) {
                selectors.add(selectNestedClass(List.of(holder), face));
            }
        }
        if (selectors.isEmpty()) {
            // Let the run say it found nothing rather than run everything.
            selectors.add(DiscoverySelectors.selectClass(ContractLauncher.class));
        }
        return selectors;
    }

    private static LauncherDiscoveryRequest request(List<DiscoverySelector> selectors, String tags) {
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .filters(TagFilter.includeTags(tags))
                .build();
    }

    /** The cases that failed, by unique id, with what they threw. */
    private static final class Failures implements TestExecutionListener {
        final Map<String, Failure> byId = new TreeMap<>();

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest() && result.getStatus() == TestExecutionResult.Status.FAILED) {
                Throwable thrown = result.getThrowable().orElse(null);
                byId.put(test.getUniqueId(), new Failure(test.getLegacyReportingName(), trace(thrown)));
            }
        }

        private static String trace(Throwable thrown) {
            if (thrown == null) {
                return "  (no exception)";
            }
            java.io.StringWriter text = new java.io.StringWriter();
            thrown.printStackTrace(new PrintWriter(text));
            return text.toString();
        }
    }

    private static final class Failure {
        final String name;
        final String trace;

        Failure(String name, String trace) {
            this.name = name;
            this.trace = trace;
        }
    }
}
