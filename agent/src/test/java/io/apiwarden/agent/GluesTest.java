package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Glue prepared ahead is defined in the loader the glue is later built in. */
class GluesTest {
    private static final String GLUE_PACKAGE = GluesTest.class.getName() + "$";

    @Test
    void glueLoadedAheadIsDefinedInTheLoaderItsGlueIsBuiltIn() throws Exception {
        Glues<Runnable> glues = new Glues<>(GLUE_PACKAGE, "Glue", Runnable.class);
        ClassLoader app = new URLClassLoader(new URL[0], getClass().getClassLoader());

        glues.prepare(app, List.of(Glue.class.getName()));

        ClassLoader glueLoader = glues.glueLoaderFor(app);
        assertThat(glueLoader.getParent()).isSameAs(app);
        assertThat(glues.glueLoaderFor(app)).isSameAs(glueLoader);
        Class<?> glue = glueLoader.loadClass(Glue.class.getName());
        assertThat(glue.getClassLoader()).isSameAs(glueLoader);
        assertThat(glue).isNotSameAs(Glue.class);
    }

    @Test
    void eachLibraryLoaderHasItsOwnGlueLoader() {
        Glues<Runnable> glues = new Glues<>(GLUE_PACKAGE, "Glue", Runnable.class);
        ClassLoader one = new URLClassLoader(new URL[0], getClass().getClassLoader());
        ClassLoader other = new URLClassLoader(new URL[0], getClass().getClassLoader());

        assertThat(glues.glueLoaderFor(one)).isNotSameAs(glues.glueLoaderFor(other));
    }

    /** Stands for a client's glue: defined beside the "library" by the glue loader. */
    public static final class Glue implements Runnable {
        @Override
        public void run() {}
    }
}
