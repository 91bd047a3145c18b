//! Pruebas del capítulo 02. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/02-hilo-por-conexion`) y contra la solución
//! (`solutions/02-hilo-por-conexion`). Un módulo por ejercicio.

mod eco {
    use std::collections::VecDeque;
    use std::io::{self, ErrorKind, Read, Write};
    use std::net::{Shutdown, TcpListener, TcpStream};
    use std::time::Duration;

    use por_conexion::eco::{atiende, sirve};

    /// Una conexión de mentira: entrega lo que lee a trozos, acepta como
    /// mucho `max_escritura` bytes en cada `write` y guarda lo escrito.
    struct Falsa {
        lecturas: VecDeque<io::Result<Vec<u8>>>,
        escrito: Vec<u8>,
        max_escritura: usize,
        cerrada: bool,
    }

    impl Falsa {
        fn nueva(lecturas: Vec<io::Result<&[u8]>>, max_escritura: usize) -> Falsa {
            Falsa {
                lecturas: lecturas.into_iter().map(|l| l.map(|b| b.to_vec())).collect(),
                escrito: Vec::new(),
                max_escritura,
                cerrada: false,
            }
        }
    }

    impl Read for Falsa {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            assert!(!self.cerrada, "read devolvió 0 (el cliente cerró) y `atiende` siguió leyendo: sal del bucle");
            match self.lecturas.pop_front() {
                None => {
                    self.cerrada = true;
                    Ok(0)
                }
                Some(Err(e)) => Err(e),
                Some(Ok(trozo)) => {
                    buf[..trozo.len()].copy_from_slice(&trozo);
                    Ok(trozo.len())
                }
            }
        }
    }

    impl Write for Falsa {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(self.max_escritura);
            self.escrito.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn atiende_devuelve_todo_lo_que_llega() {
        let mut falsa = Falsa::nueva(vec![Ok(b"hola"), Ok(b", "), Ok(b"mundo\n")], usize::MAX);
        let total = atiende(&mut falsa).expect("una conexión sin errores no debe fallar");
        assert_eq!(
            String::from_utf8_lossy(&falsa.escrito),
            "hola, mundo\n",
            "el eco debe ser exactamente lo recibido: todos los trozos, y solo los bytes leídos"
        );
        assert_eq!(total, 12, "`atiende` devuelve cuántos bytes devolvió");
    }

    #[test]
    fn atiende_escribe_aunque_write_acepte_poco() {
        let mut falsa = Falsa::nueva(vec![Ok(b"un mensaje largo")], 3);
        atiende(&mut falsa).expect("una conexión sin errores no debe fallar");
        assert_eq!(
            String::from_utf8_lossy(&falsa.escrito),
            "un mensaje largo",
            "write puede escribir menos de lo pedido (aquí, 3 bytes cada vez): usa write_all"
        );
    }

    #[test]
    fn atiende_termina_cuando_el_cliente_cierra() {
        let mut falsa = Falsa::nueva(vec![], usize::MAX);
        assert_eq!(atiende(&mut falsa).ok(), Some(0), "si el cliente cierra sin mandar nada, devuelve Ok(0)");
    }

    #[test]
    fn atiende_reintenta_si_una_senal_interrumpe() {
        let interrumpida = io::Error::from(ErrorKind::Interrupted);
        let mut falsa = Falsa::nueva(vec![Ok(b"a"), Err(interrumpida), Ok(b"b")], usize::MAX);
        let total = atiende(&mut falsa);
        assert_eq!(
            total.as_ref().ok(),
            Some(&2),
            "ErrorKind::Interrupted no es un error de la conexión: vuelve a leer (obtuviste {total:?})"
        );
        assert_eq!(falsa.escrito, b"ab");
    }

    #[test]
    fn atiende_devuelve_los_demas_errores() {
        let rota = io::Error::from(ErrorKind::ConnectionReset);
        let mut falsa = Falsa::nueva(vec![Ok(b"a"), Err(rota)], usize::MAX);
        let error = atiende(&mut falsa).expect_err("un error de lectura debe llegar a quien llamó a `atiende`");
        assert_eq!(error.kind(), ErrorKind::ConnectionReset);
    }

    /// Un cliente de verdad por 127.0.0.1. El tiempo límite solo evita que la
    /// prueba se quede colgada si el servidor no contesta; un servidor
    /// correcto contesta en microsegundos.
    fn cliente(direccion: std::net::SocketAddr) -> TcpStream {
        let c = TcpStream::connect(direccion).expect("conectar por 127.0.0.1");
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        c
    }

    fn eco_de(c: &mut TcpStream, texto: &str) -> String {
        c.write_all(texto.as_bytes()).unwrap();
        let mut eco = vec![0u8; texto.len()];
        c.read_exact(&mut eco).unwrap_or_else(|e| {
            panic!(
                "sin eco para «{texto}» ({e}): ¿atiende `sirve` cada conexión en su propio hilo, \
                 a la vez que las demás?"
            )
        });
        String::from_utf8(eco).unwrap()
    }

    #[test]
    fn sirve_atiende_varias_conexiones_a_la_vez() {
        let escucha = TcpListener::bind("127.0.0.1:0").unwrap();
        let direccion = escucha.local_addr().unwrap();
        // El núcleo completa las conexiones aunque nadie haya llamado a accept.
        let mut clientes: Vec<TcpStream> = (0..3).map(|_| cliente(direccion)).collect();
        let hilos = sirve(&escucha, 3).expect("aceptar tres conexiones");
        assert_eq!(hilos.len(), 3, "`sirve` debe lanzar un hilo por conexión y devolver sus JoinHandle");
        // El último cliente habla primero: con un solo hilo que atiende las
        // conexiones por turno, este eco no llegaría nunca.
        assert_eq!(eco_de(&mut clientes[2], "tercero"), "tercero");
        assert_eq!(eco_de(&mut clientes[0], "primero"), "primero");
        assert_eq!(eco_de(&mut clientes[1], "segundo!"), "segundo!");
        for c in &clientes {
            c.shutdown(Shutdown::Write).unwrap();
        }
        let bytes: Vec<u64> = hilos
            .into_iter()
            .map(|h| h.join().expect("el hilo no debe entrar en pánico").expect("la conexión no debe fallar"))
            .collect();
        assert_eq!(bytes, vec![7, 8, 7], "cada JoinHandle devuelve los bytes de su conexión, en orden de aceptación");
    }
}

mod estado {
    use por_conexion::estado::{Estado, campo, en_bytes, lee, por_hilo};

    /// Un trozo de `/proc/self/status` de la máquina de referencia del curso.
    const STATUS: &str = "Name:\tleccion-02\n\
        Umask:\t0022\n\
        State:\tS (sleeping)\n\
        Pid:\t4242\n\
        PPid:\t4200\n\
        VmPeak:\t 2109508 kB\n\
        VmSize:\t 2105412 kB\n\
        VmHWM:\t   11840 kB\n\
        VmRSS:\t   11840 kB\n\
        RssAnon:\t    9020 kB\n\
        RssFile:\t    2820 kB\n\
        Threads:\t1001\n\
        Cpus_allowed:\t3\n\
        Cpus_allowed_list:\t0-1\n";

    #[test]
    fn campo_por_nombre_exacto() {
        assert_eq!(campo(STATUS, "VmRSS"), Some("11840 kB"), "el valor va sin espacios alrededor");
        assert_eq!(campo(STATUS, "Threads"), Some("1001"));
        assert_eq!(campo(STATUS, "Cpus_allowed_list"), Some("0-1"));
        assert_eq!(campo(STATUS, "Cpus_allowed"), Some("3"));
        assert_eq!(campo(STATUS, "Rss"), None, "«Rss» no es «RssAnon»: compara el nombre entero, hasta los dos puntos");
        assert_eq!(campo(STATUS, "VmSwap"), None, "un campo que no está: None");
    }

    #[test]
    fn en_bytes_cuenta_kib() {
        assert_eq!(en_bytes("2048 kB"), Some(2048 * 1024), "el «kB» de /proc son KiB: 1024 bytes");
        assert_eq!(en_bytes("0 kB"), Some(0));
        assert_eq!(en_bytes("7"), None, "sin « kB» no es una cantidad de memoria");
        assert_eq!(en_bytes("mucho kB"), None);
        assert_eq!(en_bytes("12 MB"), None, "en /proc/self/status todo va en kB");
    }

    #[test]
    fn lee_el_estado() {
        assert_eq!(
            lee(STATUS),
            Ok(Estado { virtual_: 2_105_412 * 1024, residente: 11_840 * 1024, hilos: 1001 }),
            "VmSize y VmRSS en bytes; Threads tal cual"
        );
    }

    #[test]
    fn lee_dice_que_falta() {
        let sin_hilos = STATUS.replace("Threads:\t1001\n", "");
        let error = lee(&sin_hilos).expect_err("sin Threads no hay Estado");
        assert!(error.contains("Threads"), "el error debe nombrar el campo que falta, no «{error}»");
        let sin_rss = STATUS.replace("VmRSS:\t   11840 kB\n", "");
        let error = lee(&sin_rss).expect_err("sin VmRSS no hay Estado");
        assert!(error.contains("VmRSS"), "el error debe nombrar el campo que falta, no «{error}»");
    }

    #[test]
    fn por_hilo_reparte_las_diferencias() {
        let kib = 1024;
        let antes = Estado { virtual_: 10_000 * kib, residente: 2_000 * kib, hilos: 1 };
        let despues = Estado { virtual_: (10_000 + 4 * 2_052) * kib, residente: (2_000 + 4 * 10) * kib, hilos: 5 };
        assert_eq!(
            por_hilo(&antes, &despues),
            Some((2_052 * kib, 10 * kib)),
            "4 hilos nuevos: divide cada diferencia entre 4, no entre el total de hilos"
        );
        assert_eq!(por_hilo(&antes, &antes), None, "sin hilos nuevos no hay reparto");
        assert_eq!(por_hilo(&despues, &antes), None, "si hay menos hilos que antes, tampoco");
        let menos_memoria = Estado { residente: 1_000 * kib, ..despues };
        assert_eq!(
            por_hilo(&antes, &menos_memoria),
            Some((2_052 * kib, 0)),
            "si la memoria residente bajó, esa parte es 0 (sin desbordar)"
        );
    }

    #[test]
    fn lee_el_de_este_proceso() {
        let Ok(texto) = std::fs::read_to_string("/proc/self/status") else {
            eprintln!("este sistema no tiene /proc: no hay nada que leer");
            return;
        };
        let estado = lee(&texto).expect("el /proc/self/status de este proceso debe leerse");
        assert!(estado.hilos >= 1, "al menos este hilo");
        assert!(estado.residente > 0 && estado.virtual_ >= estado.residente);
    }
}

mod grupo {
    use std::collections::HashSet;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use por_conexion::grupo::Grupo;

    #[test]
    fn atiende_todo_lo_que_acepta() {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let grupo = Grupo::nuevo(2, 10, move |n: u32| tx.lock().unwrap().send(n * 10).unwrap());
        for n in 0..10 {
            assert_eq!(grupo.ofrece(n), Ok(()), "caben 10 en la cola: el trabajo {n} no debe rechazarse");
        }
        assert_eq!(grupo.cierra(), 10, "`cierra` devuelve cuántos trabajos se atendieron");
        let mut hechos: Vec<u32> = rx.try_iter().collect();
        hechos.sort();
        assert_eq!(
            hechos,
            (0..10).map(|n| n * 10).collect::<Vec<_>>(),
            "cuando `cierra` vuelve, todos los trabajos aceptados deben estar hechos"
        );
    }

    #[test]
    fn usa_como_mucho_sus_trabajadores() {
        let hilos = Arc::new(Mutex::new(HashSet::new()));
        let vistos = Arc::clone(&hilos);
        let grupo = Grupo::nuevo(3, 100, move |_: u32| {
            vistos.lock().unwrap().insert(std::thread::current().id());
        });
        for n in 0..100 {
            assert!(grupo.ofrece(n).is_ok(), "caben 100 en la cola");
        }
        assert_eq!(grupo.cierra(), 100);
        let distintos = hilos.lock().unwrap().len();
        assert!(
            (1..=3).contains(&distintos),
            "100 trabajos con 3 trabajadores deben repartirse entre 3 hilos como mucho, no {distintos}: \
             crea los hilos en `nuevo`, no uno por trabajo"
        );
    }

    /// Un trabajo que avisa al empezar y espera a que la prueba lo suelte.
    struct Bloqueado {
        id: u32,
        empieza: mpsc::Sender<u32>,
        suelta: mpsc::Receiver<()>,
    }

    #[test]
    fn rechaza_cuando_todo_esta_lleno() {
        let (empieza_tx, empieza_rx) = mpsc::channel();
        let hechos = Arc::new(Mutex::new(Vec::new()));
        let anota = Arc::clone(&hechos);
        let grupo = Grupo::nuevo(2, 1, move |t: Bloqueado| {
            t.empieza.send(t.id).unwrap();
            let _ = t.suelta.recv();
            anota.lock().unwrap().push(t.id);
        });
        let mut sueltas = Vec::new();
        let mut trabajo = |id: u32| {
            let (tx, rx) = mpsc::channel();
            sueltas.push(tx);
            Bloqueado { id, empieza: empieza_tx.clone(), suelta: rx }
        };
        // Uno a uno: cada trabajo lo recoge un trabajador antes de ofrecer el siguiente.
        assert!(grupo.ofrece(trabajo(1)).is_ok(), "con la cola vacía, el trabajo 1 cabe");
        assert_eq!(empieza_rx.recv().unwrap(), 1);
        assert!(grupo.ofrece(trabajo(2)).is_ok(), "con un trabajador libre, el trabajo 2 cabe");
        assert_eq!(empieza_rx.recv().unwrap(), 2);
        // Ahora los dos trabajadores están ocupados y la cola, vacía.
        assert!(grupo.ofrece(trabajo(3)).is_ok(), "el trabajo 3 cabe en el hueco de la cola");
        let cuarto = trabajo(4);
        let resultado = std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            let grupo = &grupo;
            s.spawn(move || {
                let _ = tx.send(grupo.ofrece(cuarto).map_err(|t| t.id));
            });
            // El límite solo evita que la prueba se cuelgue si `ofrece` se bloquea.
            let r = rx.recv_timeout(Duration::from_secs(5));
            if r.is_err() {
                sueltas.clear(); // suelta a los trabajadores para que la prueba termine
            }
            r
        });
        assert_eq!(
            resultado,
            Ok(Err(4)),
            "dos trabajadores ocupados y la cola (de 1) llena: `ofrece` debe devolver Err con el mismo \
             trabajo, al momento (try_send, no send)"
        );
        sueltas.clear();
        assert_eq!(grupo.cierra(), 3, "se atendieron 1, 2 y 3; el 4 se rechazó");
        let mut hechos = hechos.lock().unwrap().clone();
        hechos.sort();
        assert_eq!(hechos, vec![1, 2, 3]);
    }
}
