package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessProbeTest {

    @Test
    void peakRssIsReadFromTheHighWaterMarkLine() {
        List<String> status =
                List.of("Name:\tjava", "VmPeak:\t 5000000 kB", "VmHWM:\t   71234 kB", "VmRSS:\t   70000 kB");

        assertThat(ProcessProbe.parsePeakRssKb(status)).isEqualTo(71234);
    }

    @Test
    void aStatusWithoutHighWaterMarkSaysWhy() {
        assertThatThrownBy(() -> ProcessProbe.parsePeakRssKb(List.of("Name:\tjava")))
                .hasMessageContaining("VmHWM")
                .hasMessageContaining("Linux");
    }

    @Test
    void thisProcessHasAPeakRss() throws IOException {
        // This JVM has surely touched more than 10 MB.
        assertThat(ProcessProbe.peakRssKb()).isGreaterThan(10 * 1024);
    }
}
