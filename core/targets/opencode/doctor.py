"""OpenCode checks: ~/.config/opencode/opencode.json (JSON with comments), agentdeck's plugin
and the wrapper it runs, what switches the plugin off or loads config over the user's file (the
environment agentdeck runs in, the working folder's project files), MCP servers, AGENTS.md --
against core/targets/opencode/facts.py (OpenCode 1.18.33, docs/facts/opencode.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ..checks import files, secret_files
from ..parts.doctor import Context, Out, check
from ..settings_hooks import WRAPPER_NAME
from . import SPEC, plugin
from .facts import OPENCODE
from .health import pure
from ...wording import count_of

T = SPEC.name

#: the variables that change what OpenCode loads over the user's file, and what each does
#: (docs/facts/opencode.md sections 1, 2 and 4): error when it switches the guard off
ENV_SWITCHES: tuple[tuple[str, str, str], ...] = (
    (OPENCODE.permission_env, "warning",
     "is merged over every config file's permission rules (a managed file's too): it can "
     "allow what they deny (agentdeck's plugin still decides every call)"),
    (OPENCODE.config_content_env, "warning",
     "is a config layer loaded over the user's opencode.json (permission, plugin, mcp: "
     "whatever it sets wins)"),
    (OPENCODE.config_env, "warning", "names one more config file loaded over the user's"),
    (OPENCODE.config_dir_env, "warning",
     "names one more config folder: its opencode.json and its plugins/ are loaded too"),
    (OPENCODE.disable_project_env, "info",
     "keeps OpenCode from reading a working folder's opencode.json and .opencode/ (a project "
     "cannot weaken the user's config then)"),
    ("OPENCODE_TEST_MANAGED_CONFIG_DIR", "warning",
     "moves the managed config folder (/etc/opencode) somewhere the user chooses"),
)


def _home(ctx: Context) -> Path:
    return SPEC.home(ctx.host)


@dataclass
class Model:
    config: Loaded | None = None
    data: dict | None = None


def model(ctx: Context) -> Model:
    if T in ctx.memo:
        return ctx.memo[T]
    m = Model()
    ctx.memo[T] = m
    ld = ctx.json(_home(ctx) / OPENCODE.config_file, jsonc=OPENCODE.config_jsonc)
    if not ld.exists:
        return m
    m.config = ld
    m.data = ld.data if ld.ok and isinstance(ld.data, dict) else None
    return m


# ==== config ======================================================================================

@check("opencode.config.parse", ok="opencode.json parses")
def config_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    ld = m.config
    if ld is None:
        out.ok("no opencode.json (OpenCode's defaults apply)")
    elif ld.error:
        out.error(f"opencode.json does not parse: {ld.error}; OpenCode stops at start until it "
                  "is fixed", fix="fix the JSON at the line shown", path=ld.path, line=ld.line)
    elif m.data is None:
        out.error("the top level of opencode.json must be an object", path=ld.path, line=1)
    else:
        out.ok(f"opencode.json parses ({count_of(len(m.data), 'key')})", path=ld.path)


# ==== the plugin ==================================================================================

@check("opencode.plugin.installed",
       ok="agentdeck's plugin is in place and its wrapper can run")
def plugin_installed(ctx: Context, out: Out) -> None:
    """agentdeck's plugin on disk names a wrapper that exists and is executable (a plugin whose
    wrapper cannot start fails every tool call: the guard fails closed)."""
    path = _home(ctx) / OPENCODE.plugins_dir / plugin.PLUGIN_NAME
    ld = ctx.read(path)
    if not ld.exists or not isinstance(ld.text, str):
        return
    if not ld.text.startswith(plugin.HEADER):
        out.warning(f"{ctx.show(path)} is not agentdeck's plugin: agentdeck does not guard "
                    "OpenCode through it", fix="`agentdeck plan` shows the file as kept; take "
                    "it or move it", path=path)
        return
    wrapper = _home(ctx) / WRAPPER_NAME
    if str(wrapper) not in ld.text:
        out.warning("agentdeck's plugin names another wrapper than this home's",
                    fix="`agentdeck apply` writes it again", path=path)
    elif not ctx.host.is_executable(wrapper):
        what = "is missing" if not ctx.host.exists(wrapper) else "is not executable"
        out.error(f"the wrapper agentdeck's plugin runs ({ctx.show(wrapper)}) {what}: OpenCode "
                  "fails every tool call (the plugin fails closed)",
                  fix="`agentdeck apply` puts it back", path=wrapper)


@check("opencode.plugin.environment",
       ok="nothing in agentdeck's environment switches OpenCode's plugin off or loads config "
          "over the user's", needs_home=False)
def plugin_environment(ctx: Context, out: Out) -> None:
    value = pure(ctx.host)
    if value is not None:
        out.error(f"{OPENCODE.pure_env}={value} is set: OpenCode loads no external plugin, "
                  "agentdeck's guard among them; every tool call runs unchecked",
                  fix=f"unset {OPENCODE.pure_env} (and do not run opencode with "
                      f"{OPENCODE.pure_flag})")
    for var, level, what in ENV_SWITCHES:
        if ctx.host.env.get(var):
            out.add(level, f"{var} is set: it {what}", fix=f"unset {var} unless you mean it")


@check("opencode.project.layers",
       ok="the folder agentdeck was started in has no OpenCode project config", needs_home=False)
def project_layers(ctx: Context, out: Out) -> None:
    """A working folder's opencode.json(c) or .opencode/ (a cloned repository's): OpenCode loads
    it over the user's file in a session started there, and runs the plugins in it in its own
    process beside agentdeck's."""
    if ctx.host.env.get(OPENCODE.disable_project_env):
        return
    cwd = ctx.host.working_dir()
    if cwd == ctx.host.home.absolute():
        return
    for name in OPENCODE.project_files:
        p = cwd / name
        if ctx.host.is_file(p):
            ld = ctx.json(p, jsonc=True)
            data = ld.data if ld.ok and isinstance(ld.data, dict) else {}
            keys = [k for k in ("plugin", "permission", "mcp", "agent") if k in data]
            out.warning(f"{ctx.show(p)} (the folder agentdeck was started in) is loaded over "
                        "the user's opencode.json in a session started there"
                        + (f"; it sets {', '.join(keys)}" if keys else ""),
                        fix=f"review it, or set {OPENCODE.disable_project_env}=1", path=p)
    d = cwd / OPENCODE.project_dir
    plugins = [d / sub for sub in ("plugin", "plugins") if ctx.host.is_dir(d / sub)]
    found = [n for p in plugins for n in ctx.host.listdir(p) if n.endswith((".js", ".ts"))]
    if found:
        out.warning(f"{ctx.show(d)} holds plugins ({', '.join(sorted(found))}) OpenCode runs in "
                    "its own process beside agentdeck's in a session started there: a plugin can "
                    "change a call's arguments",
                    fix=f"review them, or set {OPENCODE.disable_project_env}=1", path=d)


# ==== MCP =========================================================================================

@check("opencode.mcp.invalid", ok="every MCP server entry is valid")
def mcp_invalid(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is None or m.config is None:
        return
    servers = m.data.get(OPENCODE.mcp_key)
    if not isinstance(servers, dict):
        return
    for name, e in servers.items():
        why = None
        if not isinstance(e, dict):
            why = "the entry is not an object"
        elif e.get("type") == "local" and not (isinstance(e.get("command"), list)
                                              and e["command"]):
            why = "a local server's command must be a non-empty array"
        elif e.get("type") == "remote" and not isinstance(e.get("url"), str):
            why = "a remote server needs a url"
        elif e.get("type") not in ("local", "remote"):
            why = "type must be \"local\" or \"remote\""
        if why:
            out.error(f"MCP server {name!r} is invalid: {why}; OpenCode refuses the config",
                      fix="fix the entry", path=m.config.path,
                      line=m.config.line_of(OPENCODE.mcp_key, name))


# ==== persona, secrets ============================================================================

@check("opencode.persona.markers", ok="persona markers intact")
def persona(ctx: Context, out: Out) -> None:
    files.persona_markers(ctx, out, _home(ctx) / OPENCODE.persona_file)


def _secret_sources(ctx: Context) -> list[tuple[Path, Any]]:
    m = model(ctx)
    return [(m.config.path, m.data)] if m.config is not None and m.data is not None else []


@check("opencode.secrets.literal", ok="no literal credentials in OpenCode's config",
       needs_home=False)
def secrets_literal(ctx: Context, out: Out) -> None:
    ctx.memo[f"{T}.secret-holders"] = secret_files.literal_secrets(ctx, out, _secret_sources(ctx))


@check("opencode.secrets.file-mode", ok="secret-bearing files are private", needs_home=False)
def secrets_modes(ctx: Context, out: Out) -> None:
    holders = ctx.memo.get(f"{T}.secret-holders")
    if holders is None:
        holders = secret_files.literal_secrets(ctx, Out(ctx, out.check), _secret_sources(ctx))
    secret_files.file_modes(ctx, out, holders, [])
