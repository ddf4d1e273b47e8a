"""README's Troubleshooting (and doctor's fix for a numpy clash) says: "Do not pip install numpy or OpenCV into
/opt/companion/venv by hand; re-run sudo systemd/install.sh, which pins numpy<2 and opencv-python-headless<4.12 on
Bookworm." The installer skips pip whenever its stamp (the source and the constraints) is unchanged, so after a
hand-made `pip install numpy` the re-run says "nothing to change" and the camera stays broken.

Uses tests/pi/test_install.py's fake machine (the system commands replaced by recorders)."""
from tests.pi.test_install import machine  # noqa: F401  (the fixture)


def test_reinstall_undoes_a_numpy_installed_by_hand(machine):  # noqa: F811
    code, out, _ = machine.run()
    assert code == 0, out
    # What `sudo /opt/companion/venv/bin/pip install numpy` leaves in the environment.
    site = machine.root / "opt/companion/venv/lib/python3.11/site-packages"
    (site / "numpy-2.2.0.dist-info").mkdir(parents=True)
    (site / "numpy-2.2.0.dist-info" / "METADATA").write_text("Name: numpy\nVersion: 2.2.0\n")
    code, out, calls = machine.run()
    assert code == 0, out
    assert any(c.startswith("pip install") and "constraints.txt" in c for c in calls), \
        f"the re-run the README prescribes did not put the pinned numpy back: {out.strip()}"
