# Peer access and copy bandwidths between the GPUs and the host (torch), for the multi-GPU link model.
import torch, time
n = torch.cuda.device_count()
print('devices', n, [torch.cuda.get_device_name(i) for i in range(n)])
for a in range(n):
    for b in range(n):
        if a != b: print(f'peer {a}->{b}', torch.cuda.can_device_access_peer(a, b))
def bw(src, dst, nbytes=1 << 30, reps=5):
    x = torch.empty(nbytes, dtype=torch.uint8, device=src, pin_memory=(src == 'cpu'))
    y = torch.empty(nbytes, dtype=torch.uint8, device=dst, pin_memory=(dst == 'cpu'))
    for _ in range(2): y.copy_(x, non_blocking=True)
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(reps): y.copy_(x, non_blocking=True)
    torch.cuda.synchronize(); return nbytes * reps / (time.perf_counter() - t) / 1e9
if n >= 2:
    print('cuda:0->cuda:1 GB/s %.1f' % bw('cuda:0', 'cuda:1'))
    print('cuda:1->cuda:0 GB/s %.1f' % bw('cuda:1', 'cuda:0'))
for d in range(n):
    print(f'host->cuda:{d} GB/s %.1f' % bw('cpu', f'cuda:{d}'), f'cuda:{d}->host GB/s %.1f' % bw(f'cuda:{d}', 'cpu'))
