"""The DDP zoo program: a small LlamaForCausalLM wrapped in DistributedDataParallel, then
torch.compile, trained with AdamW on 2 processes over gloo on the loopback address.

benchmarks/models.py starts the two workers (`python benchmarks/zoo_ddp.py RANK PORT OUT ...`)
and merges what they write; every rank runs eager DDP, stock Inductor and rewrite interleaved
(same order on both ranks, so that their collectives pair up) and checks its own parameters,
gradients and optimizer state against its eager DDP model."""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from zoo_measure import prime_process, run_program  # noqa: E402
from zoo_programs import (ADAM_LR, ADAM_TRAINING, TRAIN_BATCH, TRAIN_CALLS, TRAIN_SEQ, Instance, Program,  # noqa: E402
                          _decoder_config, _tokens, _training_state)

WORLD = 2
NAME = f"ddp llama train ({WORLD} procs, gloo)"


def ddp_llama_train(compile, rank: int) -> Instance:
    """LlamaForCausalLM (1 layer) in DDP, the DDP module compiled; loss, backward (DDP's
    all-reduce), AdamW foreach step."""
    from torch.nn.parallel import DistributedDataParallel
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = _decoder_config(LlamaConfig)
    config.num_hidden_layers = 1
    model = LlamaForCausalLM(config).train()
    ddp = DistributedDataParallel(model)
    forward = compile(ddp)
    optimizer = torch.optim.AdamW(model.parameters(), lr=ADAM_LR, foreach=True)
    batches = _tokens(TRAIN_CALLS, (TRAIN_BATCH, TRAIN_SEQ), rank=rank + 1)

    def call(i):
        optimizer.zero_grad(set_to_none=True)
        loss = forward(input_ids=batches[i], labels=batches[i]).loss
        loss.backward()
        optimizer.step()
        return loss.detach()

    return Instance(call, lambda: _training_state(model, optimizer))


def program(rank: int) -> Program:
    return Program(NAME, f"LlamaForCausalLM (1 layer) in DistributedDataParallel, then torch.compile; "
                   f"loss, backward, AdamW foreach (eager); batch {TRAIN_BATCH}x{TRAIN_SEQ} per rank",
                   lambda compile: ddp_llama_train(compile, rank), TRAIN_CALLS, ADAM_TRAINING)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rank", type=int)
    p.add_argument("port", type=int)
    p.add_argument("out", type=Path)
    p.add_argument("--calls", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--mode", default=None)
    p.add_argument("--timeout", type=int, default=300, help="seconds a collective may wait for the other rank")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{args.port}", rank=args.rank, world_size=WORLD,
                            timeout=datetime.timedelta(seconds=args.timeout))
    try:
        prime_process()
        result = run_program(program(args.rank), args.calls, args.warmup, mode=args.mode)
        result["rank"] = args.rank
        args.out.write_text(json.dumps(result, default=str))
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
