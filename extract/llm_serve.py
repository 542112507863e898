"""``python -m extract.llm_serve ARGS``: llama.cpp's OpenAI-compatible server (``python -m llama_cpp.server ARGS``,
the same arguments) with the model's weights in plain CPU buffers, never in llama.cpp's extra buffer types.

Why: llama-cpp-python compiles llama.cpp for the machine it is installed on. On a CPU with AMX (Intel Sapphire
Rapids and later; these machines report ``AMX_INT8 = 1``), llama.cpp 0.3.36's build loads the weights into its AMX
buffer type, repacked for AMX, and the first decode crashed the server with a segmentation fault in
``llama_decode`` (measured 2026-12-06 with SmolLM2-135M-Instruct Q4_1: every request, so every LLM-routed page fell
back as ``llm_fallback.unreachable``; upstream: ggml-org/llama.cpp#20824, a segfault in
``ggml_backend_amx_mul_mat``). ``llama_model_params.use_extra_bufts = false`` (llama.cpp's ``--no-repack``) keeps
the weights in ordinary CPU buffers; the same build then answered. llama-cpp-python's server has no flag for it,
so the default model parameters are set here before the server loads the model. What it costs: the repacked
layouts are a speed-up for Q4_0 and a few other types; the shipped model is Q4_1, which only the AMX path repacked.
"""

from __future__ import annotations

import runpy
import sys
from typing import Any

SERVER_MODULE = "llama_cpp.server"


def plain_buffers() -> bool:
    """Make every model llama-cpp-python loads in this process use plain CPU buffers; False where this build's
    parameters have no ``use_extra_bufts`` (an older llama.cpp, which has no such buffer types to avoid)."""
    import llama_cpp.llama_cpp as bindings

    if not hasattr(bindings.llama_model_default_params(), "use_extra_bufts"):
        return False
    default = bindings.llama_model_default_params

    def params() -> Any:
        p = default()
        p.use_extra_bufts = False
        return p

    # llama_cpp.Llama reads its defaults through this module attribute when it loads a model.
    bindings.llama_model_default_params = params
    return True


def main() -> None:
    plain_buffers()
    sys.argv[0] = SERVER_MODULE
    runpy.run_module(SERVER_MODULE, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
