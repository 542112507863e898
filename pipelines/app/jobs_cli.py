"""The command line of `winnow submit` and `winnow jobs` (pipelines/app/jobs.py does the work): their parsers and
commands, apart from pipelines/app/cli.py so that each file has one job."""

from __future__ import annotations

import argparse
import sys

from pipelines.app.cli_args import add_input_selection
from pipelines.config import BUNDLED, ConfigError, load_config
from pipelines.runner_options import run_options_problem


def add_jobs_parsers(sub: argparse._SubParsersAction) -> None:
    """`winnow submit` and `winnow jobs` (pipelines/app/jobs.py): runs as Ray jobs on a cluster."""
    address_help = ("the head's job server (its dashboard), e.g. http://HEAD:8265; default RAY_API_SERVER_ADDRESS "
                    "or RAY_ADDRESS. Token auth: RAY_AUTH_MODE=token with RAY_AUTH_TOKEN (or RAY_AUTH_TOKEN_PATH, "
                    "or ~/.ray/auth_token)")
    submit = sub.add_parser(
        "submit", help="run a pipeline on a Ray cluster as a Ray job",
        description="Submit `winnow run` to a Ray cluster through Ray's Job Submission API: this checkout's code "
        "(without .venv, out/, .git, caches) and the config are shipped as the job's runtime_env; the job runs "
        "`PYTHON -m pipelines.app.cli run ... --address auto` on the head. Paths are the cluster's, absolute.")
    submit.add_argument("config", metavar="CONFIG", help=f"pipeline YAML (shipped with the job), or a bundled one: "
                        f"{', '.join(BUNDLED)}")
    submit.add_argument("--address", metavar="URL", help=address_help)
    submit.add_argument("-i", "--input", nargs="+", required=True, metavar="PATH",
                        help="input files, folders, globs or listings: URLs (s3://...) or absolute paths as the "
                        "cluster sees them")
    submit.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="output folder: a URL (s3://bucket/out; every node reaches it) or an absolute path on a "
                        "file system the cluster's nodes share")

    add_input_selection(submit)
    submit.add_argument("--annotate", action="store_true", help="as for winnow run")
    submit.add_argument("--wave-files", type=int, default=16, metavar="N", help="as for winnow run (default 16)")
    submit.add_argument("--dedup-against", nargs="+", default=[], metavar="PREVIOUS_OUT",
                        help="earlier output folder(s) on the cluster: only documents new to them are kept")
    submit.add_argument("--max-error-rate", type=float, default=0.5, metavar="R",
                        help="as for winnow run (default 0.5)")
    submit.add_argument("--python", metavar="PATH",
                        help="the cluster's python with winnow's packages (default: this one, "
                        f"{sys.executable}, right for a head started from this venv)")
    submit.add_argument("--submission-id", metavar="ID",
                        help="the job's id (default: Ray's raysubmit_...); a second job with the same id is refused")
    submit.add_argument("--wait", action="store_true",
                        help="stream the job's logs until it ends; exit 0 only if it SUCCEEDED")

    jobs = sub.add_parser("jobs", help="list, inspect, follow or stop Ray jobs",
                          description="Jobs on a Ray cluster (those of winnow submit and any other).")
    jsub = jobs.add_subparsers(dest="jobs_command", required=True, metavar="ACTION")
    for name, help_text in (("list", "every job of the cluster, oldest first"),
                            ("status", "a job's status, times, message and entrypoint"),
                            ("logs", "a job's output (--follow: until it ends)"),
                            ("stop", "stop a running job")):
        action = jsub.add_parser(name, help=help_text, description=help_text)
        if name != "list":
            action.add_argument("job_id", metavar="ID", help="submission id (raysubmit_...) or job id")
        action.add_argument("--address", metavar="URL", help=address_help)
        if name == "logs":
            action.add_argument("-f", "--follow", action="store_true",
                                help="stream until the job ends; exit 0 only if it SUCCEEDED")


def cmd_submit(args: argparse.Namespace) -> int:
    from pipelines.app import jobs
    from pipelines.storage_errors import scrub

    if problem := run_options_problem(args.wave_files, args.max_error_rate):
        print(f"winnow submit: {problem}", file=sys.stderr)
        return 2
    run_args = ["--wave-files", str(args.wave_files), "--max-error-rate", str(args.max_error_rate)]
    run_args += ["--annotate"] if args.annotate else []
    for flag, value in (("--input-base", args.input_base), ("--input-first", args.input_first),
                        ("--input-every", args.input_every)):
        run_args += [flag, str(value)] if value is not None else []
    job_id = None
    try:
        load_config(args.config, annotate=args.annotate)  # a typo is refused here, not minutes later on the cluster
        sub = jobs.build_submission(args.config, args.input, args.output, python=args.python, run_args=run_args,
                                    dedup_against=args.dedup_against)
        client = jobs.connect(args.address)
        job_id = jobs.submit(client, sub, args.submission_id)
        print(f"submitted {job_id}: {scrub(sub.entrypoint)}", flush=True)
        if not args.wait:
            print(f"follow it with: winnow jobs logs {job_id} --follow --address {args.address or '$RAY_ADDRESS'}")
            return 0
        state = jobs.follow(client, job_id)
    except (ConfigError, jobs.JobsError) as exc:
        print(f"winnow submit: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the job is the cluster's now: leaving the stream must not look like stopping it
        if job_id is None:
            return 130
        print(f"\nwinnow submit: no longer following {job_id}; it goes on (winnow jobs stop {job_id} stops it)",
              file=sys.stderr)
        return 130
    print(f"job {job_id}: {state}", file=sys.stderr)
    return 0 if state == "SUCCEEDED" else 1


def cmd_jobs(args: argparse.Namespace) -> int:
    from pipelines.app import jobs

    try:
        client = jobs.connect(args.address)
        if args.jobs_command == "list":
            print("\n".join(jobs.table(jobs.list_jobs(client))))
        elif args.jobs_command == "status":
            print("\n".join(jobs.describe(jobs.status(client, args.job_id))))
        elif args.jobs_command == "stop":
            was_running = jobs.stop(client, args.job_id)
            print(f"{args.job_id}: {'stopping' if was_running else 'was not running'}")
        elif args.follow:
            state = jobs.follow(client, args.job_id)
            print(f"job {args.job_id}: {state}", file=sys.stderr)
            return 0 if state == "SUCCEEDED" else 1
        else:
            sys.stdout.write(jobs.logs(client, args.job_id))
    except jobs.JobsError as exc:
        print(f"winnow jobs {args.jobs_command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
