"""Puts the Linux client into a wheel maturin built, in place of the one maturin built.

`python swap_client.py WHEEL CLIENT`: the wheel's `*.data/scripts/hooks-bridge` becomes
the file CLIENT (the `hooks-bridge-lite` program `cargo xtask dist` ships on Linux,
which links no C library), and its line in the wheel's RECORD gets the new file's hash
and size, as the wheel format requires. The wheel is rewritten in place (through a file
beside it, renamed over it). Run by `cargo xtask dist`; see docs/decisions.md, "The
Linux client links no C library".
"""

import base64
import hashlib
import os
import sys
import zipfile

NAME = "hooks-bridge"


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{path},sha256={digest.decode()},{len(data)}"


def main(wheel, client):
    with open(client, "rb") as f:
        new = f.read()
    partial = wheel + ".partial"
    swapped = None
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(
        partial, "w", zipfile.ZIP_DEFLATED
    ) as dst:
        infos = src.infolist()
        scripts = [
            i.filename
            for i in infos
            if i.filename.endswith(".data/scripts/" + NAME)
        ]
        if len(scripts) != 1:
            sys.exit(f"swap_client: {wheel} has {len(scripts)} {NAME} scripts, not one")
        swapped = scripts[0]
        for info in infos:
            data = src.read(info.filename)
            if info.filename == swapped:
                data = new
            elif info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode().splitlines()
                lines = [
                    record_line(swapped, new) if l.split(",")[0] == swapped else l
                    for l in lines
                ]
                data = ("\n".join(lines) + "\n").encode()
            dst.writestr(info, data)
    os.replace(partial, wheel)
    print(f"swap_client: {swapped} in {os.path.basename(wheel)} is now {client}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python swap_client.py WHEEL CLIENT")
    main(sys.argv[1], sys.argv[2])
