"""What `synapse` (beside this file) does in Python, run with the venv's interpreter: config, readiness, users, SQL.

Standard library only, plus the `yaml` module Synapse itself installs into the venv.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

# Loopback only: a proxy from the environment must never see these requests.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port():
    """Prints a TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        print(probe.getsockname()[1])


def configure(data, port, database):
    """Generates DATA/homeserver.yaml on first use (as MATRIX.md §2), then sets the listener's port and the database.

    The generated file ends without a newline, so it is always rewritten through the yaml module, never appended to.
    """
    import yaml

    path = os.path.join(data, "homeserver.yaml")
    if not os.path.exists(path):
        subprocess.run(
            [sys.executable, "-m", "synapse.app.homeserver", "--server-name", "localhost", "--config-path", path,
             "--data-directory", data, "--generate-config", "--report-stats=no"],
            cwd=data, check=True, stdout=subprocess.DEVNULL)
    with open(path) as file:
        config = yaml.safe_load(file)
    limit = {"per_second": 10000, "burst_count": 10000}
    config.update(
        listeners=[{"port": int(port), "bind_addresses": ["127.0.0.1"], "type": "http", "tls": False,
                    "x_forwarded": False, "resources": [{"names": ["client"], "compress": False}]}],
        trusted_key_servers=[], suppress_key_server_warning=True, federation_domain_whitelist=[],
        enable_registration=True, enable_registration_without_verification=True, url_preview_enabled=False,
        # A test server: registering a user in tests must not cost a quarter second of bcrypt on a loaded machine.
        bcrypt_rounds=4,
        rc_message=limit, rc_registration=limit, rc_presence={"per_user": limit},
        rc_login={kind: limit for kind in ("address", "account", "failed_attempts")},
        rc_joins={"local": limit, "remote": limit},
        rc_invites={kind: limit for kind in ("per_room", "per_user", "per_issuer")},
        rc_joins_per_room=limit, rc_room_creation=limit, rc_profile=limit,
        experimental_features={"msc2654_enabled": True})
    if database == "postgres":
        config["database"] = {"name": "psycopg2", "args": postgres_args(data), "allow_unsafe_locale": False}
    else:
        config["database"] = {"name": "sqlite3", "args": {"database": os.path.join(data, "homeserver.db")}}
    with open(path + ".new", "w") as file:
        yaml.safe_dump(config, file)
    os.replace(path + ".new", path)


def postgres_args(data):
    """The connection of the throwaway cluster `synapse-postgres` runs for DATA (127.0.0.1, its own port)."""
    with open(os.path.join(data, "postgres", "port")) as file:
        port = int(file.read().strip())
    return {"user": "synapse", "database": "synapse", "host": "127.0.0.1", "port": port, "cp_min": 1, "cp_max": 5}


def alive(pid):
    """Whether process `pid` runs (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
            return True
        except OSError:
            return False


def wait(url, pid, timeout):
    """Waits until GET URL/_matrix/client/versions answers 200 (exit 0); exit 1 if process `pid` ended or `timeout`
    seconds passed first."""
    deadline = time.monotonic() + float(timeout)
    while time.monotonic() < deadline:
        if not alive(int(pid)):
            sys.exit(1)
        try:
            with OPENER.open(url + "/_matrix/client/versions", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.1)
    sys.exit(1)


def register(url, user, password):
    """Registers `user` unless the server already has one of that name."""
    body = json.dumps({"username": user, "password": password, "auth": {"type": "m.login.dummy"}}).encode()
    request = urllib.request.Request(url + "/_matrix/client/v3/register", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        OPENER.open(request, timeout=30).close()
    except urllib.error.HTTPError as error:
        answer = json.loads(error.read() or b"{}")
        if answer.get("errcode") != "M_USER_IN_USE":
            sys.exit(f"registering {user}: {error.code} {answer}")


def pair(url, first, second, password):
    """Gives `first` and `second` a direct room named after `second` (\"Ben\") unless they share one already."""
    def call(method, path, token=None, body=None):
        request = urllib.request.Request(url + "/_matrix/client/v3/" + path, method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with OPENER.open(request, timeout=30) as answer:
            return json.loads(answer.read() or b"{}")

    def login(user):
        return call("POST", "login", body={"type": "m.login.password", "password": password,
                                           "identifier": {"type": "m.id.user", "user": user}})

    one, two = login(first), login(second)
    shared = set(call("GET", "joined_rooms", one["access_token"])["joined_rooms"]) & set(
        call("GET", "joined_rooms", two["access_token"])["joined_rooms"])
    if shared:
        return
    room = call("POST", "createRoom", one["access_token"],
                {"preset": "private_chat", "is_direct": True, "invite": [two["user_id"]],
                 "name": second.capitalize()})["room_id"]
    call("POST", "rooms/" + urllib.parse.quote(room, safe="") + "/join", two["access_token"], {})
    print(f"{first} and {second} share {room}")


def sql(data, statement):
    """Runs `statement` on the server's database, whichever engine its config names; prints the rows it changed."""
    import yaml

    with open(os.path.join(data, "homeserver.yaml")) as file:
        database = yaml.safe_load(file)["database"]
    if database["name"] == "psycopg2":
        import psycopg2

        args = {key: value for key, value in database["args"].items() if not key.startswith("cp_")}
        connection = psycopg2.connect(**args)
    else:
        import sqlite3

        connection = sqlite3.connect(database["args"]["database"])
    with connection:
        cursor = connection.cursor()
        cursor.execute(statement)
        print(cursor.rowcount)
    connection.close()


COMMANDS = {"free-port": free_port, "configure": configure, "wait": wait, "register": register, "pair": pair, "sql": sql}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
