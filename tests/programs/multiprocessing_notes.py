# shared memory tensors and the sharing strategies
mp = torch.multiprocessing
t = torch.zeros(3)
out(t.is_shared())
t.share_memory_()
out(t.is_shared(), t)
model = nn.Linear(2, 2)
model.share_memory()
out([p.is_shared() for p in model.parameters()])
out(sorted(mp.get_all_sharing_strategies()), mp.get_sharing_strategy())
mp.set_sharing_strategy("file_system")
out(mp.get_sharing_strategy())
mp.set_sharing_strategy("file_descriptor")
# ---
# a worker process writes into a shared tensor (Hogwild's pattern, one step)
mp = torch.multiprocessing


def train(shared, rank):
    with torch.no_grad():
        shared[rank] += rank + 1


shared = torch.zeros(2).share_memory_()
ctx = mp.get_context("fork")
processes = []
for rank in range(2):
    p = ctx.Process(target=train, args=(shared, rank))
    p.start()
    processes.append(p)
for p in processes:
    p.join()
out(shared, [p.exitcode for p in processes])
# ---
# tensors through a queue keep their values and dtype
mp = torch.multiprocessing
ctx = mp.get_context("fork")
q = ctx.SimpleQueue()


def produce(queue, done):
    queue.put(torch.arange(4, dtype=torch.int16) * 3)
    done.wait()  # the notes' rule: a producer lives until its tensors are received


done = ctx.Event()
p = ctx.Process(target=produce, args=(q, done))
p.start()
received = q.get()
done.set()
p.join()
out(received, received.dtype, p.exitcode)
