"""Russian draughts perft from the rules themselves, independent of zrf.

Counts move paths (every capture order and landing square, as a ZRF engine generates
them) and unique moves (same start, end and captured pieces merged, as the published
counts do), with or without the rule that a flying king must land where it can go on
capturing when some landing square allows it (RULE=1).

    python3 docs/evidence/russian_draughts_perft.py 9           # the rules file's rules
    RULE=1 python3 docs/evidence/russian_draughts_perft.py 9    # the published rules

Prints `depth paths unique` per depth. See docs/semantics.md, "Russian draughts".
"""
import sys, os
RULE=os.environ.get('RULE')=='1'
DIRS=[(1,1),(1,-1),(-1,1),(-1,-1)]
def on(r,c): return 0<=r<8 and 0<=c<8
def start():
    b={}
    for r in range(8):
        for c in range(8):
            if (r+c)%2==0:
                if r<3: b[(r,c)]=('W',False)
                elif r>4: b[(r,c)]=('B',False)
    return b
def captures(b,side):
    """list of (path squares, captured tuple, final king?)"""
    res=[]
    for sq,(s,k) in list(b.items()):
        if s!=side: continue
        bb=dict(b); del bb[sq]
        found=[]
        def can_continue(pos,captured):
            r,c=pos
            for dr,dc in DIRS:
                rr,cc=r+dr,c+dc
                while on(rr,cc) and (rr,cc) not in bb: rr+=dr;cc+=dc
                if not on(rr,cc): continue
                if bb[(rr,cc)][0]==side or (rr,cc) in captured: continue
                rr+=dr;cc+=dc
                if on(rr,cc) and (rr,cc) not in bb: return True
            return False
        def rec(pos,king,captured,path):
            ext=False
            r,c=pos
            for dr,dc in DIRS:
                if king:
                    rr,cc=r+dr,c+dc
                    while on(rr,cc) and (rr,cc) not in bb: rr+=dr;cc+=dc
                    if not on(rr,cc): continue
                    if bb[(rr,cc)][0]==side or (rr,cc) in captured: continue
                    victim=(rr,cc)
                    rr+=dr;cc+=dc
                    lands=[]
                    while on(rr,cc) and (rr,cc) not in bb:
                        lands.append((rr,cc)); rr+=dr;cc+=dc
                    if RULE:
                        cont=[l for l in lands if can_continue(l,captured+(victim,))]
                        if cont: lands=cont
                    for l in lands:
                        ext=True
                        rec(l,True,captured+(victim,),path+(l,))
                else:
                    vr,vc=r+dr,c+dc; lr,lc=r+2*dr,c+2*dc
                    if not on(lr,lc): continue
                    if (vr,vc) in bb and bb[(vr,vc)][0]!=side and (vr,vc) not in captured and (lr,lc) not in bb:
                        ext=True
                        promo = (side=='W' and lr==7) or (side=='B' and lr==0)
                        rec((lr,lc),promo,captured+((vr,vc),),path+((lr,lc),))
            if not ext and captured:
                found.append((path,captured,king))
        rec(sq,k,(),(sq,))
        res+=found
    return res
def moves(b,side):
    caps=captures(b,side)
    if caps:
        out=[]
        for path,capt,king in caps:
            out.append((path[0],path[-1],capt,king,path))
        return out
    out=[]
    fwd=1 if side=='W' else -1
    for sq,(s,k) in b.items():
        if s!=side: continue
        r,c=sq
        for dr,dc in DIRS:
            if k:
                rr,cc=r+dr,c+dc
                while on(rr,cc) and (rr,cc) not in b:
                    out.append((sq,(rr,cc),(),True,(sq,(rr,cc)))); rr+=dr;cc+=dc
            else:
                if dr!=fwd: continue
                rr,cc=r+dr,c+dc
                if on(rr,cc) and (rr,cc) not in b:
                    promo=(side=='W' and rr==7) or (side=='B' and rr==0)
                    out.append((sq,(rr,cc),(),promo,(sq,(rr,cc))))
    return out
def play(b,side,m):
    frm,to,capt,king,_=m
    bb=dict(b); s,_k=bb.pop(frm)
    for x in capt: del bb[x]
    bb[to]=(s,king)
    return bb
def key(b,side): return (tuple(sorted(b.items())),side)
memo={}
def perft(b,side,d,unique):
    if d==0: return 1
    k=(key(b,side),d,unique)
    if k in memo: return memo[k]
    ms=moves(b,side)
    if unique:
        seen={};
        for m in ms: seen.setdefault((m[0],m[1],frozenset(m[2])),m)
        ms=list(seen.values())
    other='B' if side=='W' else 'W'
    if d==1: n=len(ms)
    else: n=sum(perft(play(b,side,m),other,d-1,unique) for m in ms)
    memo[k]=n
    return n
if __name__=='__main__':
    D=int(sys.argv[1])
    b=start()
    for d in range(1,D+1):
        print(d, perft(b,'W',d,False), perft(b,'W',d,True), flush=True)
