//! Pruebas del capítulo 02. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/02-hilo-por-conexion`) y contra la solución
//! (`solutions/02-hilo-por-conexion`). Un módulo por ejercicio.
//!
//! Lo que comprueba cada módulo:
//!
//! - `eco`: se devuelven exactamente los bytes leídos, también si `write`
//!   acepta pocos; `read` devolviendo 0 termina; `Interrupted` se reintenta
//!   todas las veces que llegue, y cualquier otro error (de lectura o de
//!   escritura) vuelve a quien llamó, con su `ErrorKind`; `sirve` atiende
//!   cada conexión en su hilo, a la vez, y vuelve sin esperar a esos hilos.
//! - `estado`: el nombre del campo coincide entero y el valor es todo lo que
//!   sigue a los primeros dos puntos (aunque lleve otros); el kB del núcleo son
//!   1024 bytes; un valor que no se entiende o no cabe es un error que nombra
//!   el campo (nunca un 0 ni un pánico); el reparto por hilo usa los hilos
//!   nuevos y no desborda si alguna memoria baja.
//! - `grupo`: nunca más de `trabajadores` hilos; la cola rechaza al momento
//!   lo que no cabe; los trabajadores atienden en paralelo (nadie se queda
//!   el candado mientras trabaja) y duermen cuando no hay trabajo (ni CPU ni
//!   despertares); `cierra` espera a lo que había en la cola y a lo que
//!   estaba en marcha; un pánico de `atiende` no se lleva al trabajador y
//!   sale por `cierra`. Dos pruebas compilan `grupo.rs` otra vez sobre los
//!   tipos de shuttle (`por_conexion::modelo`) y lo recorren en cientos de
//!   órdenes, con semilla fija: dos ofertas a la vez nunca meten más de lo
//!   que cabe, y un trabajo que llega cuando el trabajador se va a dormir no
//!   se pierde.
//!
//! Las pruebas que pueden quedarse esperando tienen un plazo de guarda con
//! un mensaje que dice qué esperaban; una solución correcta tarda
//! microsegundos en cada paso.

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
        falla_escritura: Option<ErrorKind>,
    }

    impl Falsa {
        fn nueva(lecturas: Vec<io::Result<&[u8]>>, max_escritura: usize) -> Falsa {
            Falsa {
                lecturas: lecturas.into_iter().map(|l| l.map(|b| b.to_vec())).collect(),
                escrito: Vec::new(),
                max_escritura,
                cerrada: false,
                falla_escritura: None,
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
            if let Some(kind) = self.falla_escritura {
                return Err(io::Error::from(kind));
            }
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
        assert_eq!(
            falsa.escrito,
            b"ab",
            "el eco debe ser «ab», los bytes de las dos lecturas buenas (la interrumpida no trae nada), y fue «{}»",
            String::from_utf8_lossy(&falsa.escrito)
        );
    }

    #[test]
    fn atiende_devuelve_los_demas_errores() {
        let rota = io::Error::from(ErrorKind::ConnectionReset);
        let mut falsa = Falsa::nueva(vec![Ok(b"a"), Err(rota)], usize::MAX);
        let error = atiende(&mut falsa).expect_err("un error de lectura debe llegar a quien llamó a `atiende`");
        assert_eq!(
            error.kind(),
            ErrorKind::ConnectionReset,
            "un ConnectionReset al leer debe llegar tal cual a quien llamó: devuelve el error de `read` con `?`, sin \
             cambiar su ErrorKind"
        );
    }

    #[test]
    fn atiende_reintenta_cada_interrupcion() {
        let i = || Err(io::Error::from(ErrorKind::Interrupted));
        let mut falsa = Falsa::nueva(vec![i(), Ok(b"a"), i(), i(), i(), Ok(b"b"), i()], usize::MAX);
        let total = atiende(&mut falsa);
        assert_eq!(
            total.as_ref().ok(),
            Some(&2),
            "una señal puede interrumpir `read` muchas veces seguidas: reintenta cada vez, no solo \
             la primera (obtuviste {total:?})"
        );
        assert_eq!(
            falsa.escrito,
            b"ab",
            "el eco debe ser «ab», los bytes de las dos lecturas buenas, y fue «{}»: las interrupciones no traen \
             bytes ni cortan la conexión",
            String::from_utf8_lossy(&falsa.escrito)
        );
    }

    #[test]
    fn atiende_no_reintenta_otros_errores() {
        for kind in [ErrorKind::TimedOut, ErrorKind::WouldBlock, ErrorKind::BrokenPipe, ErrorKind::Other] {
            let mut falsa = Falsa::nueva(vec![Ok(b"a"), Err(io::Error::from(kind)), Ok(b"b")], usize::MAX);
            let resultado = atiende(&mut falsa);
            assert_eq!(
                resultado.as_ref().map_err(|e| e.kind()),
                Err(kind),
                "solo `Interrupted` se reintenta: con {kind:?}, `atiende` debe devolver ese error \
                 (obtuviste {resultado:?}). Un plazo vencido (TimedOut, WouldBlock) no se arregla \
                 leyendo otra vez"
            );
            assert_eq!(falsa.escrito, b"a", "tras el error no se sigue leyendo");
        }
    }

    #[test]
    fn atiende_devuelve_los_errores_de_escritura() {
        let mut falsa = Falsa::nueva(vec![Ok(b"a"), Ok(b"b")], usize::MAX);
        falsa.falla_escritura = Some(ErrorKind::BrokenPipe);
        let resultado = atiende(&mut falsa);
        assert_eq!(
            resultado.as_ref().map_err(|e| e.kind()),
            Err(ErrorKind::BrokenPipe),
            "si el eco no se puede escribir (el cliente se fue), `atiende` debe devolver ese error, \
             no seguir leyendo como si nada (obtuviste {resultado:?})"
        );
    }

    /// Un cliente de verdad por 127.0.0.1. El tiempo límite solo evita que la
    /// prueba se quede colgada si el servidor no contesta; un servidor
    /// correcto contesta en microsegundos.
    fn cliente(direccion: std::net::SocketAddr) -> TcpStream {
        let c = TcpStream::connect(direccion).expect("conectar por 127.0.0.1");
        c.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
        c
    }

    type Hilos = Vec<std::thread::JoinHandle<io::Result<u64>>>;

    /// Llama a `sirve` en otro hilo y espera, con un plazo de guarda, a que
    /// vuelva: debe volver en cuanto acepta las `n` conexiones.
    fn sirve_sin_colgarse(escucha: TcpListener, n: usize) -> Hilos {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(sirve(&escucha, n));
        });
        match rx.recv_timeout(Duration::from_secs(3)) {
            Ok(hilos) => hilos.expect("aceptar las conexiones"),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!(
                "`sirve` no volvió 3 s después de tener sus {n} conexiones esperando: debe lanzar un hilo \
                 por conexión y devolver los JoinHandle sin esperar (sin join) a que terminen"
            ),
            Err(_) => panic!("`sirve` entró en pánico: mira el mensaje de arriba"),
        }
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
        let hilos = sirve_sin_colgarse(escucha, 3);
        assert_eq!(hilos.len(), 3, "`sirve` debe lanzar un hilo por conexión y devolver sus JoinHandle");
        // El último cliente habla primero: con un solo hilo que atiende las
        // conexiones por turno, este eco no llegaría nunca.
        assert_eq!(
            eco_de(&mut clientes[2], "tercero"),
            "tercero",
            "el eco del tercer cliente, que habla primero, debe ser lo que mandó: cada conexión tiene su hilo y nadie \
             espera a las de antes"
        );
        assert_eq!(eco_de(&mut clientes[0], "primero"), "primero", "el eco del primer cliente debe ser lo que mandó");
        assert_eq!(
            eco_de(&mut clientes[1], "segundo!"),
            "segundo!",
            "el eco del segundo cliente debe ser lo que mandó"
        );
        for c in &clientes {
            c.shutdown(Shutdown::Write).unwrap();
        }
        let bytes: Vec<u64> = hilos
            .into_iter()
            .map(|h| h.join().expect("el hilo no debe entrar en pánico").expect("la conexión no debe fallar"))
            .collect();
        assert_eq!(bytes, vec![7, 8, 7], "cada JoinHandle devuelve los bytes de su conexión, en orden de aceptación");
    }

    #[test]
    fn sirve_no_espera_a_que_terminen() {
        let escucha = TcpListener::bind("127.0.0.1:0").unwrap();
        let direccion = escucha.local_addr().unwrap();
        // Dos clientes que no dicen nada ni cierran: sus hilos siguen en `read`.
        let mut clientes: Vec<TcpStream> = (0..2).map(|_| cliente(direccion)).collect();
        let hilos = sirve_sin_colgarse(escucha, 2);
        assert_eq!(hilos.len(), 2, "dos conexiones aceptadas: `sirve` debe devolver un JoinHandle por cada una");
        assert!(hilos.iter().all(|h| !h.is_finished()), "con los clientes abiertos, sus hilos siguen atendiendo");
        assert_eq!(
            eco_de(&mut clientes[1], "sigo aquí"),
            "sigo aquí",
            "con `sirve` ya de vuelta, el hilo de la segunda conexión debe seguir contestando: `sirve` no espera a \
             los hilos, pero ellos siguen vivos"
        );
        drop(clientes);
        let bytes: Vec<u64> = hilos.into_iter().map(|h| h.join().expect("sin pánico").expect("sin error")).collect();
        assert_eq!(
            bytes,
            vec![0, "sigo aquí".len() as u64],
            "cada JoinHandle devuelve los bytes de su conexión, en orden de aceptación: 0 la que no dijo nada y 10 la \
             de «sigo aquí» (la «í» ocupa dos bytes)"
        );
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
        assert_eq!(
            campo(STATUS, "Threads"),
            Some("1001"),
            "el valor de Threads es «1001», sin el tabulador de delante"
        );
        assert_eq!(
            campo(STATUS, "Cpus_allowed_list"),
            Some("0-1"),
            "«Cpus_allowed_list» es un campo entero: su valor es «0-1»"
        );
        assert_eq!(
            campo(STATUS, "Cpus_allowed"),
            Some("3"),
            "«Cpus_allowed» no es «Cpus_allowed_list»: compara el nombre entero, hasta los dos puntos, y su valor es \
             «3»"
        );
        assert_eq!(campo(STATUS, "Rss"), None, "«Rss» no es «RssAnon»: compara el nombre entero, hasta los dos puntos");
        assert_eq!(campo(STATUS, "VmSwap"), None, "un campo que no está: None");
    }

    #[test]
    fn campo_con_dos_puntos_en_el_valor() {
        // Los hilos del núcleo se llaman así, y un programa puede ponerse el nombre que quiera.
        let status = STATUS.replace("Name:\tleccion-02", "Name:\tkworker/0:1H");
        assert_eq!(
            campo(&status, "Name"),
            Some("kworker/0:1H"),
            "el valor es todo lo que sigue a los PRIMEROS dos puntos, aunque lleve otros: separa solo \
             por el primero (`split_once(':')`), no con `split(':')`"
        );
        assert_eq!(
            campo("Nota: a las 10:30\n", "Nota"),
            Some("a las 10:30"),
            "el valor es todo lo que sigue a los PRIMEROS dos puntos, también los de «10:30»: separa solo por el \
             primero (`split_once(':')`)"
        );
    }

    #[test]
    fn en_bytes_cuenta_kib() {
        assert_eq!(en_bytes("2048 kB"), Some(2048 * 1024), "el «kB» de /proc son KiB: 1024 bytes");
        assert_eq!(en_bytes("0 kB"), Some(0), "«0 kB» son 0 bytes: un cero es una cantidad válida, no un error");
        assert_eq!(en_bytes("7"), None, "sin « kB» no es una cantidad de memoria");
        assert_eq!(en_bytes("mucho kB"), None, "«mucho» no es un número: None, no un pánico ni un 0");
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
    fn en_bytes_no_desborda() {
        assert_eq!(
            en_bytes("18446744073709551615 kB"),
            None,
            "u64::MAX KiB no caben en u64 bytes: None (con checked_mul), no un pánico por desbordar"
        );
        let max_kib = u64::MAX / 1024;
        assert_eq!(en_bytes(&format!("{max_kib} kB")), Some(max_kib * 1024), "el mayor que cabe sí vale");
        assert_eq!(en_bytes("-5 kB"), None, "una memoria negativa no es un número válido");
    }

    #[test]
    fn lee_dice_que_no_entiende() {
        let rara = STATUS.replace("VmSize:\t 2105412 kB", "VmSize:\t mucho kB");
        let error = lee(&rara).expect_err("un VmSize que no es un número no es un Estado (ni un 0)");
        assert!(error.contains("VmSize"), "el error debe nombrar el campo que no se entiende, no «{error}»");
        let rara = STATUS.replace("Threads:\t1001", "Threads:\tmil");
        let error = lee(&rara).expect_err("un Threads que no es un número no es un Estado (ni un 0)");
        assert!(error.contains("Threads"), "el error debe nombrar el campo que no se entiende, no «{error}»");
        let rara = STATUS.replace("VmRSS:\t   11840 kB", "VmRSS:\t   18446744073709551615 kB");
        let error = lee(&rara).expect_err("un VmRSS que no cabe en u64 bytes no es un Estado");
        assert!(error.contains("VmRSS"), "el error debe nombrar el campo que no se entiende, no «{error}»");
    }

    #[test]
    fn por_hilo_no_desborda_si_baja_la_virtual() {
        let kib = 1024;
        let antes = Estado { virtual_: 10_000 * kib, residente: 2_000 * kib, hilos: 3 };
        let despues = Estado { virtual_: 9_000 * kib, residente: 2_300 * kib, hilos: 6 };
        assert_eq!(
            por_hilo(&antes, &despues),
            Some((0, 100 * kib)),
            "si la memoria virtual bajó (el sistema devolvió una arena), esa parte es 0, sin desbordar"
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
        assert!(
            estado.residente > 0 && estado.virtual_ >= estado.residente,
            "en el /proc/self/status de este proceso, la memoria residente (VmRSS) es mayor que 0 y la virtual \
             (VmSize) al menos igual de grande; leíste residente = {} y virtual = {} bytes: ¿mezclas los campos o te \
             olvidas de multiplicar por 1024?",
            medidas::entero(estado.residente),
            medidas::entero(estado.virtual_)
        );
    }
}

mod grupo {
    use std::collections::HashSet;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use por_conexion::grupo::Grupo;

    /// Plazo de guarda para lo que una solución correcta hace en microsegundos.
    const GUARDA: Duration = Duration::from_secs(3);

    fn espera<T>(rx: &mpsc::Receiver<T>, que: &str) -> T {
        rx.recv_timeout(GUARDA).unwrap_or_else(|_| panic!("{} s esperando {que}", GUARDA.as_secs()))
    }

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
        assert_eq!(
            grupo.cierra(),
            100,
            "se aceptaron 100 trabajos: `cierra` debe esperar a todos y devolver cuántos se atendieron"
        );
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
        assert_eq!(
            espera(&empieza_rx, "a que un trabajador empiece el trabajo 1"),
            1,
            "el primer trabajo que empieza debe ser el 1, el único que hay"
        );
        assert!(grupo.ofrece(trabajo(2)).is_ok(), "con un trabajador libre, el trabajo 2 cabe");
        // Si falla, el pánico suelta `sueltas` y con ello a los trabajadores.
        let segundo = empieza_rx.recv_timeout(GUARDA);
        assert_eq!(
            segundo.ok(),
            Some(2),
            "el trabajo 2 no empezó mientras el 1 seguía en marcha, con un trabajador libre: ¿se queda un \
             trabajador el candado del receptor mientras atiende? Ojo: en `while let Ok(t) = \
             receptor.lock().unwrap().recv()`, la guarda vive todo el cuerpo del bucle"
        );
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
        assert_eq!(
            hechos,
            vec![1, 2, 3],
            "se atienden exactamente los trabajos aceptados, 1, 2 y 3; el 4 se rechazó y no debe atenderse"
        );
    }

    /// CPU (en µs) y cambios de contexto voluntarios e involuntarios del
    /// hilo que llama, según getrusage(RUSAGE_THREAD).
    fn uso_de_este_hilo() -> (i64, i64, i64) {
        // SAFETY: `uso` es nuestro; getrusage solo escribe en él.
        let mut uso: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut uso) };
        assert_eq!(r, 0, "getrusage(RUSAGE_THREAD) falló");
        let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
        (us(uso.ru_utime) + us(uso.ru_stime), uso.ru_nvcsw, uso.ru_nivcsw)
    }

    #[test]
    fn los_trabajadores_duermen_sin_trabajo() {
        // Un solo trabajador: los dos trabajos corren en el mismo hilo, que
        // anota su propio uso al empezar cada uno. Entre los dos, 150 ms sin
        // trabajo: un trabajador dormido en `recv` no gasta CPU ni despierta.
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let grupo = Grupo::nuevo(1, 4, move |_: u32| {
            let _ = tx.lock().unwrap().send(uso_de_este_hilo());
        });
        assert!(grupo.ofrece(1).is_ok(), "con la cola (de 4) vacía, el trabajo 1 cabe: `ofrece` debe devolver Ok");
        let (cpu_antes, vol_antes, invol_antes) = espera(&rx, "al primer trabajo");
        std::thread::sleep(Duration::from_millis(150));
        assert!(grupo.ofrece(2).is_ok(), "el trabajo 1 ya terminó y la cola está vacía: el trabajo 2 cabe");
        let (cpu_despues, vol_despues, invol_despues) = espera(&rx, "al segundo trabajo");
        assert_eq!(grupo.cierra(), 2, "se aceptaron 2 trabajos: `cierra` debe esperar a los dos y devolver 2");
        let cpu_ms = (cpu_despues - cpu_antes) as f64 / 1000.0;
        let despertares = vol_despues - vol_antes;
        let expulsiones = invol_despues - invol_antes;
        assert!(
            cpu_ms < 20.0 && despertares <= 10 && expulsiones <= 10,
            "en 150 ms sin trabajo, el trabajador gastó {} ms de CPU, se durmió y despertó \
             {despertares} veces y el sistema lo echó de la CPU {expulsiones}: eso es espera activa \
             (try_recv en bucle, yield_now, recv_timeout cortos). Duerme en `recv()` hasta que llegue \
             un trabajo o se cierre la cola",
            medidas::numero(cpu_ms, 1)
        );
    }

    #[test]
    fn cierra_espera_lo_que_queda() {
        let (suelta_tx, suelta_rx) = mpsc::channel::<()>();
        let suelta_rx = Mutex::new(suelta_rx);
        let hechos = Arc::new(Mutex::new(Vec::new()));
        let anota = Arc::clone(&hechos);
        let grupo = Grupo::nuevo(1, 4, move |n: u32| {
            if n == 1 {
                // El primero espera a que la prueba lo suelte (o a que se rinda).
                let _ = suelta_rx.lock().unwrap().recv_timeout(GUARDA);
            }
            anota.lock().unwrap().push(n);
        });
        for n in 1..=3 {
            assert!(grupo.ofrece(n).is_ok(), "caben 3 trabajos");
        }
        let (vuelta_tx, vuelta_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = vuelta_tx.send(grupo.cierra());
        });
        // El trabajo 1 sigue en marcha y el 2 y el 3, en la cola: `cierra` no
        // puede volver todavía.
        let pronto = vuelta_rx.recv_timeout(Duration::from_millis(50));
        if let Ok(cuenta) = pronto {
            panic!(
                "`cierra` volvió (con {cuenta}) con un trabajo en marcha y dos en la cola: debe esperar (join) \
                 a que los trabajadores terminen todo lo que aceptaron"
            );
        }
        drop(suelta_tx);
        assert_eq!(
            espera(&vuelta_rx, "a que `cierra` vuelva tras soltar el trabajo 1"),
            3,
            "`cierra` devuelve cuántos trabajos se atendieron: el 1, que estaba en marcha, y el 2 y el 3, que \
             esperaban en la cola"
        );
        assert_eq!(*hechos.lock().unwrap(), vec![1, 2, 3], "cuando `cierra` vuelve, todo está hecho");
    }

    /// Un trabajo que entra en pánico no se lleva al trabajador: con uno
    /// solo, los que siguen en la cola se atienden igual.
    #[test]
    fn un_panico_de_atiende_no_se_lleva_al_trabajador() {
        let (suelta_tx, suelta_rx) = mpsc::channel::<()>();
        let suelta_rx = Mutex::new(suelta_rx);
        let hechos = Arc::new(Mutex::new(Vec::new()));
        let anota = Arc::clone(&hechos);
        let grupo = Grupo::nuevo(1, 4, move |n: u32| {
            if n == 1 {
                // Espera a que los tres estén en la cola, y entonces falla.
                let _ = suelta_rx.lock().unwrap().recv_timeout(GUARDA);
                panic!("el trabajo 1 falla (a propósito: es la prueba)");
            }
            anota.lock().unwrap().push(n);
        });
        for n in 1..=3 {
            assert!(grupo.ofrece(n).is_ok(), "caben 4 en la cola: el trabajo {n} no debe rechazarse");
        }
        drop(suelta_tx);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| grupo.cierra()));
        assert_eq!(
            *hechos.lock().unwrap(),
            [2, 3],
            "con un solo trabajador, `atiende` entró en pánico con el trabajo 1 y los trabajos 2 y 3, ya \
             aceptados, no se atendieron: el pánico se llevó al trabajador (y, con el último, al receptor de la \
             cola). Un servidor no puede perder un hilo por cada petición que falla: envuelve la llamada en \
             `std::panic::catch_unwind(AssertUnwindSafe(|| atiende(trabajo)))` y sigue con el siguiente"
        );
    }

    /// Y ese pánico no se esconde: sale por `cierra`, con su carga original.
    #[test]
    fn un_panico_de_atiende_sale_por_cierra() {
        let hechos = Arc::new(Mutex::new(Vec::new()));
        let anota = Arc::clone(&hechos);
        let grupo = Grupo::nuevo(2, 4, move |n: u32| {
            if n == 2 {
                panic!("el trabajo 2 falla (a propósito: es la prueba)");
            }
            anota.lock().unwrap().push(n);
        });
        for n in 1..=3 {
            assert!(grupo.ofrece(n).is_ok(), "caben 4 en la cola: el trabajo {n} no debe rechazarse");
        }
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| grupo.cierra())) {
            Ok(n) => panic!(
                "`cierra` devolvió {n} como si nada, pero `atiende` entró en pánico con el trabajo 2: ese pánico \
                 no puede quedarse escondido en un hilo. Guárdalo en el trabajador (el `Err` de `catch_unwind`) \
                 y, cuando `cierra` haya esperado a todos, relánzalo con `std::panic::resume_unwind`"
            ),
            Err(carga) => {
                let texto =
                    carga.downcast_ref::<&str>().copied().or(carga.downcast_ref::<String>().map(|s| s.as_str()));
                assert_eq!(
                    texto,
                    Some("el trabajo 2 falla (a propósito: es la prueba)"),
                    "`cierra` entró en pánico, pero no con el de `atiende`: relanza su carga tal cual, con \
                     `std::panic::resume_unwind(carga)` (un `unwrap` o un `panic!` nuevos cambian el mensaje)"
                );
            }
        }
        let mut hechos = hechos.lock().unwrap().clone();
        hechos.sort();
        assert_eq!(hechos, [1, 3], "los trabajos 1 y 3 se atienden aunque el 2 entre en pánico");
    }

    // Con shuttle: todos los órdenes posibles entre los hilos, no los que
    // traiga la suerte.

    /// Las pruebas de modelo compilan tu `grupo.rs` otra vez sobre los tipos
    /// de shuttle (`por_conexion::modelo`). Si tu archivo nombra `std::sync`
    /// o `std::thread`, esa copia usaría los de verdad, que shuttle no
    /// controla (y podría colgarse): se comprueba antes de empezar.
    fn exige_los_tipos_de_super_sync() {
        let ruta = concat!(env!("CARGO_MANIFEST_DIR"), "/src/grupo.rs");
        let Ok(fuente) = std::fs::read_to_string(ruta) else { return };
        // Sin comentarios ni espacios: `std :: sync` también cuenta.
        let codigo: String =
            fuente.lines().flat_map(|l| l.split("//").next()).flat_map(|l| l.split_whitespace()).collect();
        let mut usa = ["std::sync", "std::thread", "core::sync"].into_iter().find(|m| codigo.contains(m));
        // `use std::{sync::Mutex, thread}`: lo que va entre las llaves.
        for (i, _) in codigo.match_indices("std::{") {
            let resto = &codigo[i..];
            let fin = resto.find('}').unwrap_or(resto.len());
            if resto[..fin].contains("sync") || resto[..fin].contains("thread") {
                usa = usa.or(Some("std::{...}"));
            }
        }
        if let Some(nombre) = usa {
            panic!(
                "tu grupo.rs nombra `{nombre}`: toma `Mutex`, `Condvar`, `mpsc`, `atomic`, `thread`... de \
                 `super::sync` (por ejemplo, `use super::sync::{{Arc, Mutex}};` y `thread::spawn` tras \
                 `use super::sync::thread;`). En el programa son los de `std`; en estas pruebas, los de \
                 shuttle, que prueban cientos de órdenes distintos entre tus hilos"
            );
        }
    }

    /// Cuántos órdenes recorre cada prueba de modelo, y la semilla con la
    /// que shuttle los elige: siempre los mismos, así que el veredicto no
    /// cambia de una ejecución a otra. Recorrerlos todos (`check_dfs`) tarda
    /// demasiado con un `Condvar`; los errores de esta forma (mirar y actuar
    /// en dos pasos, un aviso perdido) salen en los primeros 15 órdenes con
    /// cualquiera de 30 semillas probadas, así que 250 dejan margen de sobra.
    const ORDENES: usize = 250;
    const SEMILLA: u64 = 1;

    /// Ejecuta `modelo` en [`ORDENES`] órdenes distintos entre sus hilos,
    /// elegidos por shuttle con una semilla fija. Si alguno falla, el pánico
    /// y el orden que lo provoca salen más arriba, y aquí se explica qué
    /// significa.
    fn en_muchos_ordenes(modelo: fn(), si_falla: &str) {
        exige_los_tipos_de_super_sync();
        let resultado = std::panic::catch_unwind(|| shuttle::check_random_with_seed(modelo, SEMILLA, ORDENES));
        if let Err(carga) = resultado {
            let dijo = carga.downcast_ref::<String>().map(String::as_str).or(carga.downcast_ref::<&str>().copied());
            let dijo = dijo.and_then(|d| d.lines().next()).unwrap_or("");
            panic!("{si_falla}\n(el modelo dijo: «{dijo}»; el orden exacto está más arriba)");
        }
    }

    /// El trabajo 0 ocupa al único trabajador hasta que se abre una puerta;
    /// con la cola de 1 vacía, dos hilos ofrecen a la vez: cabe uno.
    pub fn modelo_dos_ofertas_a_la_vez() {
        use por_conexion::modelo::grupo::Grupo as GrupoDelModelo;
        use shuttle::sync::{Arc, Mutex, mpsc};

        let puerta = Arc::new(Mutex::new(()));
        let cerrada = puerta.lock().unwrap();
        let (empieza_tx, empieza_rx) = mpsc::channel();
        let empieza_tx = Mutex::new(empieza_tx);
        let hechos = Arc::new(Mutex::new(Vec::new()));
        let (abre, anota) = (Arc::clone(&puerta), Arc::clone(&hechos));
        let grupo = Arc::new(GrupoDelModelo::nuevo(1, 1, move |n: u32| {
            if n == 0 {
                let _ = empieza_tx.lock().unwrap().send(());
                drop(abre.lock().unwrap());
            }
            anota.lock().unwrap().push(n);
        }));
        assert!(grupo.ofrece(0).is_ok(), "con la cola vacía, el trabajo 0 cabe");
        empieza_rx.recv().expect("el trabajador empieza el trabajo 0");
        // Trabajador ocupado y cola de 1, vacía: dos ofertas a la vez, la de
        // otro hilo y la de este.
        let otra = {
            let grupo = Arc::clone(&grupo);
            shuttle::thread::spawn(move || grupo.ofrece(1))
        };
        let esta = grupo.ofrece(2);
        let resultados = [otra.join().unwrap(), esta];
        let aceptados: Vec<u32> = (1..=2).zip(&resultados).filter(|(_, r)| r.is_ok()).map(|(n, _)| n).collect();
        assert_eq!(
            aceptados.len(),
            1,
            "con el trabajador ocupado y una cola de 1, vacía, dos hilos ofrecieron a la vez y se aceptaron \
             {aceptados:?}: tiene que caber exactamente uno"
        );
        for (n, r) in (1..=2).zip(&resultados) {
            if let Err(devuelto) = r {
                assert_eq!(*devuelto, n, "el trabajo rechazado vuelve tal cual en el Err");
            }
        }
        drop(cerrada);
        let grupo = Arc::into_inner(grupo).expect("ya nadie más usa el grupo");
        assert_eq!(grupo.cierra(), 2, "se atienden el 0 y el aceptado");
        let mut hechos = hechos.lock().unwrap().clone();
        hechos.sort();
        assert_eq!(hechos, [0, aceptados[0]], "se atiende exactamente lo aceptado");
    }

    #[test]
    fn dos_ofertas_a_la_vez_respetan_la_cola_con_shuttle() {
        en_muchos_ordenes(
            modelo_dos_ofertas_a_la_vez,
            "en algún orden entre dos hilos que ofrecen a la vez, la cola aceptó de más (o de menos). Si miras \
             si cabe (un contador, `len()`) y metes el trabajo en otro paso (otro `lock`, un `fetch_add` después \
             del `load`), los dos hilos pueden mirar antes de que ninguno meta el suyo, y los dos entran. \
             Mirar y meter van en un solo paso: `try_send` de un `sync_channel`, o las dos cosas con el \
             candado tomado UNA vez",
        );
    }

    /// Un trabajador y dos trabajos, uno tras otro: cada uno llega cuando el
    /// trabajador está en algún punto de irse a dormir.
    pub fn modelo_trabajo_al_dormirse() {
        use por_conexion::modelo::grupo::Grupo as GrupoDelModelo;
        use shuttle::sync::{Mutex, mpsc};

        let (hecho_tx, hecho_rx) = mpsc::channel();
        let hecho_tx = Mutex::new(hecho_tx);
        let grupo = GrupoDelModelo::nuevo(1, 1, move |n: u32| {
            let _ = hecho_tx.lock().unwrap().send(n);
        });
        for n in 0..2u32 {
            assert!(grupo.ofrece(n).is_ok(), "con la cola vacía, el trabajo {n} cabe");
            assert_eq!(hecho_rx.recv(), Ok(n), "el trabajo {n} se atiende antes de `cierra`");
        }
        assert_eq!(grupo.cierra(), 2, "se aceptaron y atendieron los trabajos 0 y 1: `cierra` debe devolver 2");
    }

    #[test]
    fn un_trabajo_que_llega_al_dormirse_se_atiende_con_shuttle() {
        en_muchos_ordenes(
            modelo_trabajo_al_dormirse,
            "en algún orden, un trabajo aceptado se quedó en la cola con el trabajador dormido, y nadie lo \
             atendió (shuttle lo llama «deadlock»: todos los hilos esperando). Es un aviso perdido: el trabajador \
             miró la cola, la vio vacía, soltó el candado y solo después se puso a esperar; el aviso del trabajo \
             nuevo llegó en medio, cuando aún no esperaba nadie. Con `Condvar`, mira la condición y espera con \
             el MISMO candado (`while cola.is_empty() { guarda = aviso.wait(guarda).unwrap(); }`), o duerme \
             en el `recv` de un canal, que no pierde avisos",
        );
    }
}
