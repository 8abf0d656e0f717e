package io.apiwarden.micronautit;

import io.micronaut.core.annotation.Introspected;

/** What the app posts: a JSON body that names the call, so that the test can find it on the server. */
@Introspected
public record Item(String client, String scenario) {}
