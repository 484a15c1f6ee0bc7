package dev.dtap.locality;

import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** A fixed host list from {@code fs.dtap.locality.hosts}. */
final class StaticHosts implements MembershipProvider {
  private final List<String> hosts;

  StaticHosts(List<String> hosts) {
    this.hosts = Collections.unmodifiableList(hosts);
  }

  @Override
  public Collection<String> hosts() {
    return hosts;
  }

  @Override
  public String describe() {
    return LocalityKeys.HOSTS.name();
  }
}
