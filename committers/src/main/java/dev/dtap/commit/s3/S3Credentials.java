package dev.dtap.commit.s3;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.credentials.SystemPropertyCredentialsProvider;
import software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider;

/**
 * The credentials of a tap's S3 backend, chosen as S3A chooses them: the providers listed in
 * {@code fs.s3a.aws.credentials.provider}, or, when that is unset, the tap's access and secret key
 * (and session token) when they are set, else the SDK's default chain.
 *
 * <p>The SDK is relocated in the drop-in jar, so provider classes are not loaded by name; the
 * providers S3A and the SDK name are mapped to their SDK equivalents, and any other name fails
 * with a message that lists the supported ones. Keys are read through {@code
 * Configuration.getPassword}, so Hadoop credential providers work. Immutable; {@link #toString()}
 * names the providers only.
 */
final class S3Credentials {
  private interface Maker {
    AwsCredentialsProvider make(S3Settings.Lookup l) throws IOException;
  }

  private static final Map<String, Maker> KNOWN = new LinkedHashMap<>();

  static {
    Maker simple = l -> keys(l, false);
    Maker temporary = l -> keys(l, true);
    Maker anonymous = l -> AnonymousCredentialsProvider.create();
    Maker env = l -> EnvironmentVariableCredentialsProvider.create();
    Maker instance = l -> InstanceProfileCredentialsProvider.create();
    Maker container = l -> ContainerCredentialsProvider.builder().build();
    Maker profile = l -> ProfileCredentialsProvider.create();
    Maker dflt = l -> DefaultCredentialsProvider.create();
    Maker sysprops = l -> SystemPropertyCredentialsProvider.create();
    Maker webIdentity = l -> WebIdentityTokenFileCredentialsProvider.create();
    Function<String, String> s3a = n -> "org.apache.hadoop.fs.s3a." + n;
    Function<String, String> v2 = n -> "software.amazon.awssdk.auth.credentials." + n;
    Function<String, String> v1 = n -> "com.amazonaws.auth." + n;
    KNOWN.put(s3a.apply("SimpleAWSCredentialsProvider"), simple);
    KNOWN.put(s3a.apply("TemporaryAWSCredentialsProvider"), temporary);
    KNOWN.put(s3a.apply("AnonymousAWSCredentialsProvider"), anonymous);
    KNOWN.put(s3a.apply("auth.IAMInstanceCredentialsProvider"), instance);
    KNOWN.put(s3a.apply("SharedInstanceCredentialsProvider"), instance);
    KNOWN.put(v2.apply("EnvironmentVariableCredentialsProvider"), env);
    KNOWN.put(v1.apply("EnvironmentVariableCredentialsProvider"), env);
    KNOWN.put(v2.apply("InstanceProfileCredentialsProvider"), instance);
    KNOWN.put(v1.apply("InstanceProfileCredentialsProvider"), instance);
    KNOWN.put(v2.apply("ContainerCredentialsProvider"), container);
    KNOWN.put(v1.apply("ContainerCredentialsProvider"), container);
    KNOWN.put(v2.apply("ProfileCredentialsProvider"), profile);
    KNOWN.put(v1.apply("profile.ProfileCredentialsProvider"), profile);
    KNOWN.put(v2.apply("DefaultCredentialsProvider"), dflt);
    KNOWN.put(v1.apply("DefaultAWSCredentialsProviderChain"), dflt);
    KNOWN.put(v2.apply("SystemPropertyCredentialsProvider"), sysprops);
    KNOWN.put(v1.apply("SystemPropertiesCredentialsProvider"), sysprops);
    KNOWN.put(v2.apply("WebIdentityTokenFileCredentialsProvider"), webIdentity);
    KNOWN.put(v1.apply("WebIdentityTokenCredentialsProvider"), webIdentity);
  }

  private final AwsCredentialsProvider provider;
  private final String description;

  private S3Credentials(AwsCredentialsProvider provider, String description) {
    this.provider = provider;
    this.description = description;
  }

  static S3Credentials read(S3Settings.Lookup l) throws IOException {
    String listed = l.get("aws.credentials.provider");
    if (listed == null) {
      if (l.password("access.key") != null || l.password("secret.key") != null) {
        boolean session = l.password("session.token") != null;
        return new S3Credentials(keys(l, session), session ? "session keys" : "access keys");
      }
      return new S3Credentials(DefaultCredentialsProvider.create(), "SDK default chain");
    }
    List<String> names = new ArrayList<>();
    List<AwsCredentialsProvider> chain = new ArrayList<>();
    for (String raw : listed.split(",")) {
      String name = raw.trim();
      if (name.isEmpty()) {
        continue;
      }
      Maker m = KNOWN.get(name);
      if (m == null) {
        throw new IOException(
            "Unsupported credential provider '"
                + name
                + "' in "
                + l.keyFor("aws.credentials.provider")
                + " of tap '"
                + l.tapName()
                + "' for the dtap committers; supported: "
                + KNOWN.keySet());
      }
      names.add(name.substring(name.lastIndexOf('.') + 1));
      chain.add(m.make(l));
    }
    if (chain.isEmpty()) {
      return new S3Credentials(DefaultCredentialsProvider.create(), "SDK default chain");
    }
    AwsCredentialsProvider p =
        chain.size() == 1
            ? chain.get(0)
            : AwsCredentialsProviderChain.builder().credentialsProviders(chain).build();
    return new S3Credentials(p, String.join(",", names));
  }

  private static AwsCredentialsProvider keys(S3Settings.Lookup l, boolean session)
      throws IOException {
    String access = l.password("access.key");
    String secret = l.password("secret.key");
    if (access == null || secret == null) {
      throw new IOException(
          "Tap '"
              + l.tapName()
              + "' needs both "
              + l.keyFor("access.key")
              + " and "
              + l.keyFor("secret.key")
              + " for the configured credential provider");
    }
    if (session) {
      String token = l.password("session.token");
      if (token == null) {
        throw new IOException(
            "Tap '" + l.tapName() + "' needs " + l.keyFor("session.token") + " for temporary credentials");
      }
      return StaticCredentialsProvider.create(AwsSessionCredentials.create(access, secret, token));
    }
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret));
  }

  AwsCredentialsProvider provider() {
    return provider;
  }

  /** @return the supported provider names, for documentation and tests */
  static List<String> supportedNames() {
    return Arrays.asList(KNOWN.keySet().toArray(new String[0]));
  }

  @Override
  public String toString() {
    return description;
  }
}
