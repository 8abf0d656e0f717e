package io.apiwarden.it.apps;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs {@link ReactorNettyApp} with Reactor Netty in a child class loader, as a Spring Boot fat jar
 * does: Reactor Netty is not on this JVM's class path at all. Args: the folder of Reactor Netty's
 * jars, then {@link ReactorNettyApp}'s own.
 */
public final class ChildLoaderReactorNettyApp {
    private ChildLoaderReactorNettyApp() {}

    public static void main(String[] args) throws Exception {
        List<URL> urls = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Paths.get(args[0]), "*.jar")) {
            for (Path jar : dir) {
                urls.add(jar.toUri().toURL());
            }
        }
        // The app's class itself is defined by the child, so that it links to the child's Reactor Netty.
        urls.add(ChildLoaderReactorNettyApp.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation());
        String app = ReactorNettyApp.class.getName();
        try (URLClassLoader child =
                new URLClassLoader(urls.toArray(new URL[0]), ChildLoaderReactorNettyApp.class.getClassLoader()) {
                    @Override
                    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                        synchronized (getClassLoadingLock(name)) {
                            if (name.startsWith(app)) {
                                Class<?> c = findLoadedClass(name);
                                return c != null ? c : findClass(name);
                            }
                            return super.loadClass(name, resolve);
                        }
                    }
                }) {
            Class<?> main = child.loadClass(app);
            Class<?> client = child.loadClass("reactor.netty.http.client.HttpClient");
            System.out.println("LOADER " + (client.getClassLoader() == child && main.getClassLoader() == child));
            main.getMethod("main", String[].class).invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        }
    }
}
