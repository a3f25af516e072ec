"""Build one of the ns-3 reference programs in this directory (manet_cbr.cc, manet_tcp.cc) with
g++ against the installed ns-3 wheel (pip install ns3==3.44.post0): headers from
<ns3 package>/include, shared libraries from <ns3 package>/lib64, linked with an rpath to them.
The binary is cached in the build directory and rebuilt when its source or a shared header
(*.h next to it) is newer. Used by run_manet.py and run_manet_tcp.py.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# ns-3 modules each program links against.
LIBS = {
    "manet_cbr": ["aodv", "olsr", "dsdv", "wifi", "mobility", "internet", "applications",
                  "traffic-control", "network", "propagation", "core"],
    "rate_control": ["wifi", "mobility", "internet", "applications", "traffic-control",
                     "network", "propagation", "core"],
    "manet_tcp": ["aodv", "dsr", "wifi", "mobility", "internet", "applications",
                  "traffic-control", "network", "propagation", "core"],
}


def ns3_root():
    """Directory of the installed `ns3` Python package (holds include/ and lib64/)."""
    spec = importlib.util.find_spec("ns3")
    if spec is None:
        sys.exit("ns3 is not installed in this Python: python3 -m pip install ns3==3.44.post0")
    locs = list(spec.submodule_search_locations or [])
    if spec.origin and spec.origin not in ("namespace", None):
        locs.insert(0, os.path.dirname(spec.origin))
    for loc in locs:
        if (Path(loc) / "include" / "ns3" / "core-module.h").exists():
            return Path(loc)
    sys.exit(f"no include/ns3 under the ns3 package locations {locs}")


def build(program: str, out_dir: Path) -> Path:
    """Compile HERE/<program>.cc into out_dir/<program> unless the binary is up to date."""
    src = HERE / f"{program}.cc"
    root = ns3_root()
    libdir = next((root / d for d in ("lib64", "lib") if (root / d).is_dir()), None)
    if libdir is None:
        sys.exit(f"no lib64/ or lib/ under {root}")
    version = next(iter(sorted(p.name for p in libdir.glob("libns3.*-core.so"))), None)
    if version is None:
        sys.exit(f"no libns3.*-core.so in {libdir}")
    ver = version[len("libns3."):-len("-core.so")]  # e.g. "44"
    out_dir.mkdir(parents=True, exist_ok=True)
    exe = out_dir / program
    newest = max(p.stat().st_mtime for p in [src, *HERE.glob("*.h")])
    if exe.exists() and exe.stat().st_mtime > newest:
        return exe
    cmd = ["g++", "-O2", "-std=c++20", f"-I{root / 'include'}", f"-I{HERE}", str(src),
           "-o", str(exe), f"-L{libdir}", f"-Wl,-rpath,{libdir}"]
    cmd += [f"-lns3.{ver}-{lib}" for lib in LIBS[program]]
    print("building:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    return exe


if __name__ == "__main__":
    # python3 tools/ns3/ns3build.py manet_tcp [BUILD_DIR]
    prog = sys.argv[1] if len(sys.argv) > 1 else "manet_cbr"
    print(build(prog, Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "build"))
