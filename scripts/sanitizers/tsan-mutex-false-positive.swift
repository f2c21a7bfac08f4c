import Dispatch
import Synchronization

final class Box: Sendable {
  let value = Mutex<[Int: [UInt32]]>([:])
}

func work() {
  let box = Box()
  DispatchQueue.concurrentPerform(iterations: 4) { k in
    for i in 0..<2000 {
      box.value.withLock { dict in
        if dict[i % 7] == nil { dict[i % 7] = [UInt32](repeating: UInt32(k), count: 64) }
        dict[i % 7]![0] &+= 1
      }
    }
  }
  print(box.value.withLock { $0.count })
}
work()
