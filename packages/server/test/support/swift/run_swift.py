"""All-in-one OpenStack Swift for tests: proxy (s3api + tempauth), account, container and object
servers as green threads in ONE process, the way Swift's own in-process functional tests run.
One process starts in ~1 s where four `swift-*-server` processes plus `swift-ring-builder` runs take
several seconds on 2 cores.

usage: python3 run_swift.py <run_dir> <region>
Binds every server to a free 127.0.0.1 port first, builds 1-replica rings pointing at those ports,
then prints one JSON line {"port": <proxy port>} on stdout. Exits when stdin closes, so a test
runner that dies cannot leave it behind.
"""
import json
import os
import string
import sys

import eventlet

eventlet.patcher.monkey_patch(all=False, socket=True, select=True, thread=True)

from swift.common import utils  # noqa: E402
from swift.common.http_protocol import SwiftHttpProtocol  # noqa: E402
from swift.common.ring import RingBuilder  # noqa: E402
from swift.common.wsgi import loadapp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STORAGE_KINDS = ("account", "container", "object")


def render(template_name, target, values):
    with open(os.path.join(HERE, template_name)) as f:
        text = string.Template(f.read()).substitute(values)
    with open(target, "w") as f:
        f.write(text)
    return target


def build_ring(swift_dir, kind, port):
    # part_power 4 (16 partitions), 1 replica, min_part_hours 0: the smallest valid ring.
    builder = RingBuilder(4, 1, 0)
    builder.add_dev({"id": 0, "region": 1, "zone": 1, "ip": "127.0.0.1", "port": port,
                     "device": "d1", "weight": 1, "meta": ""})
    builder.rebalance()
    builder.get_ring().save(os.path.join(swift_dir, "%s.ring.gz" % kind))


def watch_stdin():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    run_dir, region = sys.argv[1], sys.argv[2]
    swift_dir = os.path.join(run_dir, "etc")
    devices = os.path.join(run_dir, "srv")
    os.makedirs(swift_dir, exist_ok=True)
    os.makedirs(os.path.join(devices, "d1"), exist_ok=True)
    values = {"swift_dir": swift_dir, "devices": devices, "run_dir": run_dir, "region": region}

    render("swift.conf", os.path.join(swift_dir, "swift.conf"), values)
    utils.set_swift_dir(swift_dir)

    sockets = {kind: eventlet.listen(("127.0.0.1", 0)) for kind in STORAGE_KINDS + ("proxy",)}
    for kind in STORAGE_KINDS:
        build_ring(swift_dir, kind, sockets[kind].getsockname()[1])

    apps = {}
    for kind in STORAGE_KINDS:
        conf = render("storage-server.conf", os.path.join(swift_dir, "%s-server.conf" % kind),
                      dict(values, kind=kind))
        apps[kind] = loadapp(conf, global_conf={"log_name": kind})
    apps["proxy"] = loadapp(render("proxy-server.conf", os.path.join(swift_dir, "proxy-server.conf"), values),
                            global_conf={"log_name": "proxy"})

    for kind, app in apps.items():
        # capitalize_response_headers off: the AWS SDK needs "ETag", not eventlet's "Etag".
        eventlet.spawn(eventlet.wsgi.server, sockets[kind], app, utils.NullLogger(),
                       protocol=SwiftHttpProtocol, capitalize_response_headers=False)

    eventlet.patcher.original("threading").Thread(target=watch_stdin, daemon=True).start()
    sys.stdout.write(json.dumps({"port": sockets["proxy"].getsockname()[1]}) + "\n")
    sys.stdout.flush()
    while True:
        eventlet.sleep(3600)


if __name__ == "__main__":
    main()
