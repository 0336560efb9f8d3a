"""Installs the summa package and records where its repository is, so that
an installed package finds the tools built there (build/bin) without an
environment variable. pip builds in the source tree, so this file's folder
is the repository's python/ folder."""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BuildPy(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "summa", "_install.py")
        with open(target, "w") as f:
            f.write('"""Written by setup.py at install time."""\n\n')
            f.write(f"REPO = {REPO!r}\n")


setup(cmdclass={"build_py": BuildPy})
