//! The `main` of the actor binaries (`retake-inspector`, `retake-auditor`): the role's
//! arguments, or `health [URL]` for a container health check; logging; the secret from the
//! Lead's pipe or the environment (`take_secret`); one error line and exit code 2 when the actor fails.

use super::{init_logging, HealthCheckArgs, LogFormat};
use crate::session::ActorError;
use crate::wire::Secret;
use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use std::process::ExitCode;

/// The options every actor binary takes besides its role's arguments.
#[derive(Debug, clap::Args)]
struct Common {
    /// Log format on standard error.
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// What an actor binary does besides being the actor.
#[derive(Debug, clap::Subcommand)]
enum Utility {
    /// Probe a health endpoint for a container health check (no curl needed): exit 0 when it
    /// answers 2xx, 1 when not.
    Health(HealthCheckArgs),
}

/// What the command line asks for.
#[derive(Debug)]
enum Invocation<A> {
    Actor(A),
    Utility(Utility),
}

/// The command line of the actor binary `bin` whose role takes the arguments `A`: the role's
/// arguments are required unless a utility subcommand is given instead.
fn command<A: Args>(bin: &'static str, about: &'static str) -> Command {
    let cmd = Command::new(bin)
        .bin_name(bin)
        .version(env!("CARGO_PKG_VERSION"))
        .args_conflicts_with_subcommands(true)
        .subcommand_negates_reqs(true);
    // Last: the derives set the command's about from their own doc comments.
    Utility::augment_subcommands(A::augment_args(Common::augment_args(cmd)))
        .about(about)
        .long_about(None)
}

fn parse<A: Args>(matches: &ArgMatches) -> Result<(Common, Invocation<A>), clap::Error> {
    let common = Common::from_arg_matches(matches)?;
    let invocation = match matches.subcommand_name() {
        Some(_) => Invocation::Utility(Utility::from_arg_matches(matches)?),
        None => Invocation::Actor(A::from_arg_matches(matches)?),
    };
    Ok((common, invocation))
}

/// Runs the actor binary `bin` (described by `about`): parses the command line, sets up
/// logging, and either runs a utility or `run`s the actor with the secret it was handed.
pub fn actor_main<A: Args>(
    bin: &'static str,
    about: &'static str,
    run: fn(A, Secret) -> Result<(), ActorError>,
) -> ExitCode {
    let mut cmd = command::<A>(bin, about);
    let matches = cmd.get_matches_mut();
    let (common, invocation) = parse::<A>(&matches).unwrap_or_else(|e| e.format(&mut cmd).exit());
    init_logging(common.log_format);
    let args = match invocation {
        Invocation::Utility(Utility::Health(check)) => return ExitCode::from(check.run()),
        Invocation::Actor(args) => args,
    };
    let outcome = super::take_secret()
        .map_err(ActorError::from)
        .and_then(|secret| run(args, secret));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{bin}: error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::process::ProcessArgs;

    #[derive(Debug, clap::Args)]
    struct RoleArgs {
        #[arg(long, default_value = "auditor")]
        name: String,
        #[command(flatten)]
        process: ProcessArgs,
    }

    fn try_parse(argv: &[&str]) -> Result<(Common, Invocation<RoleArgs>), clap::Error> {
        let argv = std::iter::once("retake-x").chain(argv.iter().copied());
        let matches = command::<RoleArgs>("retake-x", "test").try_get_matches_from(argv)?;
        parse(&matches)
    }

    #[test]
    fn the_role_arguments_or_the_health_subcommand() {
        let (common, got) = try_parse(&["--lead", "h:1", "--log-format", "json"]).unwrap();
        assert_eq!(common.log_format, LogFormat::Json);
        let Invocation::Actor(args) = got else {
            panic!("expected the actor")
        };
        assert_eq!(
            (args.name.as_str(), args.process.lead.as_str()),
            ("auditor", "h:1")
        );

        let (common, got) = try_parse(&["health", "http://127.0.0.1:9/readyz"]).unwrap();
        assert_eq!(common.log_format, LogFormat::Text);
        let Invocation::Utility(Utility::Health(check)) = got else {
            panic!("expected the probe")
        };
        assert_eq!(check.url.as_deref(), Some("http://127.0.0.1:9/readyz"));
        assert_eq!(check.timeout_ms, 3000);

        let missing = try_parse(&[]).unwrap_err();
        assert_eq!(
            missing.kind(),
            clap::error::ErrorKind::MissingRequiredArgument
        );
        let both = try_parse(&["--lead", "h:1", "health"]).unwrap_err();
        assert_eq!(both.kind(), clap::error::ErrorKind::ArgumentConflict);
    }
}
