//! The container files' wiring, checked on every run (building the image and
//! starting the compose file is `deploy/container/container-test.sh`, which
//! needs podman and a quarter of an hour): the compose services and their
//! commands, that every variable they set is one the commands read, that the
//! balancer points at the API services, and that the Dockerfile runs as a
//! non-root user with its data on a volume and a health check on `/ready` —
//! and that the base-image script makes exactly the images the files name.

use std::collections::BTreeSet;

fn repo(path: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    std::fs::read_to_string(format!("{root}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn compose() -> serde_yaml::Value {
    let mut value: serde_yaml::Value = serde_yaml::from_str(&repo("compose.yaml")).unwrap();
    value.apply_merge().unwrap();
    value
}

fn strings(value: &serde_yaml::Value) -> Vec<String> {
    value
        .as_sequence()
        .map(|s| {
            s.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// `FROM`/`image:` names the files use.
fn images_named() -> BTreeSet<String> {
    let dockerfile = repo("Dockerfile");
    let mut names: BTreeSet<String> = dockerfile
        .lines()
        .filter_map(|l| l.strip_prefix("ARG "))
        .filter_map(|l| l.split_once('='))
        .filter(|(k, _)| k.ends_with("_IMAGE"))
        .map(|(_, v)| v.to_owned())
        .collect();
    let compose = compose();
    for (_, service) in compose["services"].as_mapping().unwrap() {
        if let Some(image) = service["image"].as_str()
            && !image.starts_with("${TONNE_IMAGE")
        {
            names.insert(image.to_owned());
        }
    }
    names
}

#[test]
fn compose_runs_two_api_processes_a_dispatcher_postgres_redis_and_a_balancer() {
    let compose = compose();
    let services = compose["services"].as_mapping().unwrap();
    let names: BTreeSet<&str> = services.keys().filter_map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        BTreeSet::from([
            "api-1",
            "api-2",
            "balancer",
            "dispatcher",
            "postgres",
            "redis"
        ])
    );
    let svc = |name: &str| &compose["services"][name];
    assert_eq!(
        strings(&svc("api-1")["command"]),
        ["serve", "--no-dispatcher"]
    );
    assert_eq!(
        strings(&svc("api-2")["command"]),
        ["serve", "--no-dispatcher"]
    );
    assert_eq!(strings(&svc("dispatcher")["command"])[0], "dispatch");
    assert_eq!(
        svc("api-2")["environment"]["TONNE_NO_DEMO"].as_str(),
        Some("true")
    );

    // Every variable the Tonne services set is one the commands read.
    let known = repo(".env.example");
    for name in ["api-1", "api-2", "dispatcher"] {
        let env = svc(name)["environment"].as_mapping().unwrap();
        assert!(env.contains_key("DATABASE_URL") && env.contains_key("TONNE_SECRETS_KEY"));
        assert!(
            env.contains_key("TONNE_REDIS_URL"),
            "{name} shares the rate limits"
        );
        for key in env.keys().filter_map(|k| k.as_str()) {
            assert!(
                known.contains(&format!("# {key}=")),
                "{name}: {key} is not a setting"
            );
        }
        assert!(
            env["DATABASE_URL"]
                .as_str()
                .unwrap()
                .starts_with("postgres://"),
            "{name} runs on PostgreSQL"
        );
    }
    // The balancer fronts both API services on the port the image listens on.
    let haproxy = repo("deploy/container/haproxy.cfg");
    for server in [
        "server api1 api-1:8080 check",
        "server api2 api-2:8080 check",
    ] {
        assert!(haproxy.contains(server), "{server}");
    }
    assert!(haproxy.contains("option httpchk GET /ready"));
    // No request reaches a process still starting: the API waits for a
    // healthy database, the balancer for healthy API processes.
    for name in ["api-1", "api-2"] {
        assert_eq!(
            svc(name)["depends_on"]["postgres"]["condition"].as_str(),
            Some("service_healthy"),
            "{name}"
        );
        assert_eq!(
            svc("balancer")["depends_on"][name]["condition"].as_str(),
            Some("service_healthy"),
            "the balancer waits for {name}"
        );
        assert!(
            svc(name)["healthcheck"]["test"]
                .as_sequence()
                .is_some_and(|t| t
                    .iter()
                    .any(|p| p.as_str().is_some_and(|p| p.ends_with("/ready"))))
        );
    }
    assert!(haproxy.contains("http-request deny deny_status 404 if { path -m beg /metrics }"));
    let mounted = strings(&svc("balancer")["volumes"]);
    assert_eq!(
        mounted,
        ["./deploy/container/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]
    );
}

#[test]
fn the_image_runs_unprivileged_with_a_volume_and_a_health_check() {
    let dockerfile = repo("Dockerfile");
    let has = |line: &str| dockerfile.lines().any(|l| l.trim() == line);
    assert!(has("USER 10001:10001"), "a non-root user");
    assert!(dockerfile.contains("useradd --system --uid 10001"));
    assert!(has("VOLUME [\"/var/lib/tonne\"]"));
    assert!(dockerfile.contains("DATABASE_URL=sqlite:///var/lib/tonne/tonne.db"));
    assert!(dockerfile.contains("TONNE_BIND=0.0.0.0:8080"));
    assert!(has("EXPOSE 8080"));
    assert!(dockerfile.contains("CMD curl -fsS http://127.0.0.1:8080/ready"));
    assert!(dockerfile.contains("cargo build --release --locked -p tonne --bin tonne"));
    assert_eq!(dockerfile.matches("\nFROM ").count(), 2, "two stages");
    // What the build stage copies is what the workspace needs to build.
    for copied in [
        "COPY Cargo.toml Cargo.lock ./",
        "COPY crates crates",
        "COPY migrations migrations",
    ] {
        assert!(has(copied), "{copied}");
    }
}

#[test]
fn the_base_image_script_makes_every_image_the_files_name() {
    let script = repo("deploy/container/base-images.sh");
    let made: BTreeSet<String> = script
        .lines()
        .filter_map(|l| l.split_once("=docker.io/"))
        .map(|(_, rest)| format!("docker.io/{rest}"))
        .collect();
    assert_eq!(made, images_named());
}
