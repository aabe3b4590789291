"""Reference values for the dynamic-stall tests (fmu-aero/tests/aero/dynamic_stall.rs).

Written independently of the Rust code. Run with the project's venv (NumPy, SciPy):

    /work/main/target/venv/bin/python fmu-aero/tests/aero/data/dynamic_stall_reference.py \
        [path/to/frame_10022.mat ...]

1. Theodorsen's function C(k) = H1(k) / (H1(k) + i H0(k)) (Hankel functions of the second kind,
   k = omega c / (2 V)), evaluated with scipy.special.hankel2, at the reduced frequencies of the
   harmonic test; and the transfer function of R. T. Jones' two-exponential approximation of
   Wagner's function, 1 - sum A_i i k / (b_i + i k), for comparison.
2. Wagner's function phi(s) (s = 2 V t / c, semi-chords travelled) from C(k) by the inversion
   phi(s) = (2/pi) int_0^inf F(k) / k sin(k s) dk (F = Re C), numerically (scipy.integrate.quad,
   the tail with the Fourier-sine weight), beside Jones' approximation.
3. With paths to McAlister et al. (1982) frames as digitized in luizpancini/BL-DSM-JFS-2021
   `NASA Data/frame_<id>.mat` (10022, 10104, 10108, 10123 are used): the lift and moment loops
   written as CSV (the frames store alpha_0 and delta_alpha in rad, the loop angles in deg).

Output: theodorsen_wagner.csv (and mcalister_frame_<id>.csv) next to this script.
"""

import os
import sys

import numpy as np
from scipy import integrate, special

HERE = os.path.dirname(os.path.abspath(__file__))
# R. T. Jones' approximation of Wagner's function, phi(s) = 1 - A1 e^{-b1 s} - A2 e^{-b2 s}.
JONES = ((0.165, 0.0455), (0.335, 0.3))
REDUCED_FREQUENCIES = (0.02, 0.05, 0.1, 0.2, 0.5)
WAGNER_S = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0)


def theodorsen(k):
    h0, h1 = special.hankel2(0, k), special.hankel2(1, k)
    return h1 / (h1 + 1j * h0)


def jones_transfer(k):
    return 1.0 - sum(a * 1j * k / (b + 1j * k) for a, b in JONES)


def wagner_exact(s):
    split = 50.0
    head, _ = integrate.quad(lambda k: theodorsen(k).real * np.sinc(k * s / np.pi) * s, 1e-12, split,
                             limit=2000, epsabs=1e-12, epsrel=1e-12)
    tail, _ = integrate.quad(lambda k: theodorsen(k).real / k, split, np.inf, weight="sin", wvar=s,
                             limlst=200, epsabs=1e-12)
    return 2.0 / np.pi * (head + tail)


def jones_step(s):
    return 1.0 - sum(a * np.exp(-b * s) for a, b in JONES)


def main():
    rows = ["kind,x,exact_re,exact_im,jones_re,jones_im"]
    for k in REDUCED_FREQUENCIES:
        c, j = theodorsen(k), jones_transfer(k)
        rows.append(f"theodorsen,{k},{c.real:.10f},{c.imag:.10f},{j.real:.10f},{j.imag:.10f}")
        print(f"C({k}) = {c:.6f}; Jones {j:.6f}; |diff| {abs(c - j):.4f}")
    for s in WAGNER_S:
        w, j = wagner_exact(s), jones_step(s)
        rows.append(f"wagner,{s},{w:.10f},0,{j:.10f},0")
        print(f"phi({s}) = {w:.6f}; Jones {j:.6f}; diff {w - j:+.4f}")
    with open(os.path.join(HERE, "theodorsen_wagner.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    for path in sys.argv[1:]:
        write_frame(path)


def write_frame(path):
    """The lift and moment loops of one digitized frame as `mcalister_frame_<id>.csv`."""
    from scipy import io
    d = io.loadmat(path, squeeze_me=True)
    frame = os.path.basename(path).removeprefix("frame_").removesuffix(".mat")
    print("frame", frame, ": M", d["M"], "alpha_0", np.degrees(d["alpha_0"]), "delta_alpha",
          np.degrees(d["delta_alpha"]), "k", d["k"], d["authors"])
    out = [f"# McAlister et al. (1982), NASA TM-84245, NACA 0012, frame {frame}: M = {d['M']:.3f}, "
           f"alpha = {np.degrees(d['alpha_0']):.2f} + {np.degrees(d['delta_alpha']):.2f} sin(omega t) deg, "
           f"k = {d['k']:.3f}; digitized in luizpancini/BL-DSM-JFS-2021 'NASA Data/frame_{frame}.mat'",
           "quantity,alpha_deg,value"]
    for name, a, v in (("cl", d["alpha_exp_cl"], d["cl_exp"]), ("cm", d["alpha_exp_cm"], d["cm_exp"])):
        out += [f"{name},{x:.4f},{y:.4f}" for x, y in zip(a, v)]  # alpha is stored in deg
    with open(os.path.join(HERE, f"mcalister_frame_{frame}.csv"), "w") as f:
        f.write("\n".join(out) + "\n")

if __name__ == "__main__":
    main()
