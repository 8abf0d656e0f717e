package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.ConfigProperty;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client modules keep the switches users already have, each is documented, and each weaves what it names. */
class ClientModulesTest {

    @Test
    void theModulesAreNamedAsTheSwitchesUsersAlreadyHave() {
        // The first modules' names, which users' configurations carry; new clients come after them.
        assertThat(ClientModules.names())
                .startsWith("jdk-http-client", "okhttp", "reactor-netty", "apache-httpclient")
                .doesNotHaveDuplicates();
        assertThat(ConfigProperty.CLIENT_ENABLED.keyFor("apache-httpclient"))
                .isEqualTo("apiwarden.instrumentation.apache-httpclient.enabled");
        assertThat(ConfigProperty.CLIENT_ENABLED.envNameFor("reactor-netty"))
                .isEqualTo("APIWARDEN_INSTRUMENTATION_REACTOR_NETTY_ENABLED");
    }

    @Test
    void everyModuleIsNamedInTheRowOfTheClientSwitch() throws Exception {
        String row = Files.readString(Paths.get("..", "docs", "configuration.md"))
                .lines()
                .filter(l -> l.startsWith("| `" + ConfigProperty.CLIENT_ENABLED.key() + "` |"))
                .findFirst()
                .orElseThrow();
        for (ClientModule module : ClientModules.ALL) {
            assertThat(row).contains("`" + module.name() + "`");
        }
    }

    @Test
    void eachModuleNamesExactlyTheClassesItHasWeavingsFor() {
        Set<String> woven = new HashSet<>();
        for (ClientModule module : ClientModules.ALL) {
            assertThat(module.weavings().keySet()).as(module.name()).isEqualTo(module.wovenClasses());
            for (String className : module.wovenClasses()) {
                // The agent has one transformer: two modules weaving one class would lose one of the two.
                assertThat(woven.add(className)).as(className + " woven twice").isTrue();
            }
        }
    }

    @Test
    void aModuleIsAskedForItsWeavingsOnlyWhenAClassOfItIsMetAndThenOnce() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HookTransformer.Weaving weaving = (reader, next) -> next;
        ClientModule module = new ClientModule() {
            @Override
            public String name() {
                return "test-client";
            }

            @Override
            public String displayName() {
                return "Test client";
            }

            @Override
            public Set<String> wovenClasses() {
                return Set.of("a/First", "a/Second");
            }

            @Override
            public Map<String, HookTransformer.Weaving> weavings() {
                asked.incrementAndGet();
                return Map.of("a/First", weaving, "a/Second", weaving);
            }
        };

        Map<String, HookTransformer.Weaving> targets = ModuleWeaving.of(module);

        assertThat(targets).containsOnlyKeys("a/First", "a/Second");
        assertThat(asked).hasValue(0);
        assertThat(targets.get("a/First").library()).isEqualTo("Test client");
        assertThat(targets.get("a/First").canWeave(getClass().getClassLoader())).isTrue();
        targets.get("a/Second").linksToAgent();
        assertThat(asked).hasValue(1);
    }

    @Test
    void everyClassAModuleLoadsAheadIsInTheJar() {
        for (ClientModule module : ClientModules.ALL) {
            for (String name : module.firstCallClasses()) {
                assertThat(getClass().getClassLoader().getResource(name.replace('.', '/') + ".class"))
                        .as("%s loads %s ahead", module.name(), name)
                        .isNotNull();
            }
        }
    }

    @Test
    void aModuleWarmsUpOnceInTheLoaderOfTheFirstClassWoven() throws Exception {
        List<ClassLoader> warmedIn = new CopyOnWriteArrayList<>();
        CountDownLatch warmed = new CountDownLatch(1);
        HookTransformer.Weaving weaving = (reader, next) -> next;
        ClientModule module = new ClientModule() {
            @Override
            public String name() {
                return "warm-test-client";
            }

            @Override
            public String displayName() {
                return "Warm test client";
            }

            @Override
            public Set<String> wovenClasses() {
                return Set.of("w/First", "w/Second");
            }

            @Override
            public Map<String, HookTransformer.Weaving> weavings() {
                return Map.of("w/First", weaving, "w/Second", weaving);
            }

            @Override
            public List<String> firstCallClasses() {
                return List.of("w.Glue");
            }

            @Override
            public void warmUp(ClassLoader libraryLoader) {
                warmedIn.add(libraryLoader);
                warmed.countDown();
            }
        };
        ClassLoader first = new URLClassLoader(new URL[0], null);
        ClassLoader second = new URLClassLoader(new URL[0], null);
        Map<String, HookTransformer.Weaving> targets = ModuleWeaving.of(module);

        targets.get("w/First").woven(first);
        targets.get("w/Second").woven(second);
        targets.get("w/First").woven(second);

        assertThat(warmed.await(10, TimeUnit.SECONDS)).isTrue();
        // Every warm-up thread the three calls may have started has started by now: wait for them all to end.
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("apiwarden-warm-up-warm-test-client")) {
                thread.join(10_000);
            }
        }
        assertThat(warmedIn).containsExactly(first);
    }

    @Test
    void theWarningAndTheHelpListTheClientsInProse() {
        assertThat(ClientModules.either(List.of("a", "b", "c"))).isEqualTo("a, b or c");
        assertThat(ClientModules.either(List.of("a"))).isEqualTo("a");
    }
}
